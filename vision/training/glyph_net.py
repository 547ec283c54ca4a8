"""Fit the shipped glyph model's networks (numpy only, seeded, one core).

:func:`fit_network` trains a small fully connected network (:class:`vision.glyphs.Network`)
by minibatch Adam on the cross-entropy, with weight decay and input noise so it leans on
shapes every design shares rather than on one deck's details. :func:`net_model` fits
``MEMBERS`` pairs of a rank network (rank or reject, from the rank features) and a suit
network (from the suit features of real indices) on the examples of
:mod:`vision.training.glyphs`, each pair with its own seed, by the fits given (these fully
connected ones, ``DENSE_FITS``, or the convolutional ones of :mod:`vision.training.glyph_cnn`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from functools import partial

import numpy as np

from vision.glyphs import BINARY, GREY, REJECT, NetModel, Network
from vision.index_reader import RANK_LAYOUT
from vision.training.adam import Adam

#: Hidden layer widths of the rank and the suit network.
RANK_HIDDEN = (160, 64)
SUIT_HIDDEN = (96, 48)
EPOCHS = 30
BATCH = 256
LEARNING_RATE = 2e-3
WEIGHT_DECAY = 1e-4
#: Reject examples (pips paired by chance, picture parts) kept per index example: with
#: all of them (about three per index) the network turned down real indices of decks
#: it had not seen.
REJECTS_PER_INDEX = 1.0
#: Weight of the index layout (rank-to-suit distance, suit size): small, as it differs
#: from deck to deck more than from rank to rank (at full weight a deck's 3 with a
#: small club read as a 5).
LAYOUT_WEIGHT = 1 / 3
#: Gaussian noise added to the standardised inputs while training.
INPUT_NOISE = 0.3
#: Fits (seeds) averaged in the shipped model: one. Three averaged read the real photos no
#: steadier across seeds than one fit does, and lower (docs/vision-cards.md, *Models*).
MEMBERS = 1
#: The patch kinds the shipped model's members read: binary and grey-level patches, read
#: together (docs/vision-cards.md, *Models*).
PATCHES = (BINARY, GREY)


def fit_network(
    features: np.ndarray,
    labels: np.ndarray,
    hidden: Sequence[int],
    *,
    weights: np.ndarray | None = None,
    epochs: int = EPOCHS,
    seed: int = 0,
) -> Network:
    """A network that names ``labels`` from ``features`` (one row each), seeded.

    Inputs are centred and divided by one common spread (so a feature that barely
    varies is not blown up to the weight of a whole glyph patch), times ``weights`` per
    feature if given.

    >>> rng = np.random.default_rng(0)
    >>> points = rng.normal(size=(2000, 2))
    >>> names = np.where(points[:, 0] > 0, "a", "b")
    >>> net = fit_network(points, names, (8,), epochs=40)
    >>> _, shares = net.shares(np.array([[2.0, 0.0], [-2.0, 0.0]]))
    >>> shares.argmax(axis=1).tolist()
    [0, 1]
    """
    rng = np.random.default_rng(seed)
    names, codes = np.unique(labels, return_inverse=True)
    mean, scale = standardisation(features, weights)
    inputs = ((features - mean) / scale).astype(np.float32)
    sizes = [inputs.shape[1], *hidden, len(names)]
    params: list[np.ndarray] = []
    for fan_in, fan_out in itertools.pairwise(sizes):
        params.append((rng.normal(0, np.sqrt(2.0 / fan_in), (fan_in, fan_out))).astype(np.float32))
        params.append(np.zeros(fan_out, np.float32))
    adam = Adam(params, LEARNING_RATE)
    batches = max(1, len(inputs) // BATCH)
    for epoch in range(epochs):
        adam.rate = LEARNING_RATE * 0.5 * (1 + np.cos(np.pi * epoch / epochs))
        order = rng.permutation(len(inputs))
        for batch in np.array_split(order, batches):
            x = inputs[batch] + rng.normal(0, INPUT_NOISE, (len(batch), inputs.shape[1]))
            gradients = backward(params, x.astype(np.float32), codes[batch])
            adam.update([
                gradient + WEIGHT_DECAY * params[n] if n % 2 == 0 else gradient
                for n, gradient in enumerate(gradients)
            ])
    layers = tuple((params[n], params[n + 1]) for n in range(0, len(params), 2))
    return Network(mean, scale, layers, names)


def standardisation(
    features: np.ndarray, weights: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """The mean of each feature and one common spread (times ``weights`` per feature if
    given) that a network's inputs are standardised by."""
    mean = features.mean(axis=0).astype(np.float32)
    scale = np.full(features.shape[1], features.std(axis=0).mean() + 1e-3, np.float32)
    if weights is not None:
        scale /= weights.astype(np.float32)
    return mean, scale


def backward(params: list[np.ndarray], x: np.ndarray, codes: np.ndarray) -> list[np.ndarray]:
    """Gradients of the mean cross-entropy of the network ``params`` on ``x`` and ``codes``."""
    activations = [x]
    for n in range(0, len(params) - 2, 2):
        activations.append(np.maximum(activations[-1] @ params[n] + params[n + 1], 0.0))
    logits = activations[-1] @ params[-2] + params[-1]
    logits -= logits.max(axis=1, keepdims=True)
    probabilities = np.exp(logits)
    probabilities /= probabilities.sum(axis=1, keepdims=True)
    probabilities[np.arange(len(codes)), codes] -= 1.0
    error = probabilities / len(codes)
    gradients: list[np.ndarray] = []
    for n in range(len(params) - 2, -1, -2):
        gradients[:0] = [activations[n // 2].T @ error, error.sum(axis=0)]
        if n:
            error = (error @ params[n].T) * (activations[n // 2] > 0)
    return gradients


#: Fits a network: ``fit(features, labels, weights=..., seed=...)``, and ``epochs=...``.
Fit = Callable[..., Network]
#: The rank and the suit network's fits of the shipped model: fully connected networks.
DENSE_FITS: tuple[Fit, Fit] = (
    partial(fit_network, hidden=RANK_HIDDEN),
    partial(fit_network, hidden=SUIT_HIDDEN),
)


def net_model(
    features: Mapping[str, tuple[np.ndarray, np.ndarray]],
    rank_labels: np.ndarray,
    suit_labels: np.ndarray,
    *,
    epochs: int | None = None,
    seed: int = 0,
    members: int = MEMBERS,
    fits: tuple[Fit, Fit] = DENSE_FITS,
    patches: Sequence[str] = PATCHES,
) -> NetModel:
    """For each patch kind of ``patches``, ``members`` pairs of networks fitted on these
    examples (``features[kind]``: rank and suit features, one row per candidate; a
    reject's suit label is ``REJECT`` and it trains the rank network only) by the rank
    and suit ``fits`` (for ``epochs``, or each fit's own default), member ``k`` with seed
    ``members * seed + k``, so that the members of two seeds never share a fit (the
    kinds' members with the same seeds).

    Each member cuts the rejects to ``REJECTS_PER_INDEX`` per index example (a sample of
    its own); the index layout features weigh ``LAYOUT_WEIGHT`` (see
    :data:`vision.index_reader.RANK_LAYOUT`).
    """
    chosen = fits if epochs is None else tuple(partial(fit, epochs=epochs) for fit in fits)
    pairs = [
        network_pair(ranks, rank_labels, suits, suit_labels, (chosen[0], chosen[1]),
                     members * seed + k)
        for ranks, suits in (features[kind] for kind in patches)
        for k in range(members)
    ]
    return NetModel(
        tuple(rank for rank, _ in pairs),
        tuple(suit for _, suit in pairs),
        tuple(kind for kind in patches for _ in range(members)),
    )


def network_pair(
    rank_features: np.ndarray,
    rank_labels: np.ndarray,
    suit_features: np.ndarray,
    suit_labels: np.ndarray,
    fits: tuple[Fit, Fit],
    seed: int,
) -> tuple[Network, Network]:
    """One rank network and one suit network fitted on these examples with ``seed``."""
    rng = np.random.default_rng(seed)
    rejects = np.nonzero(rank_labels == REJECT)[0]
    indices = np.nonzero(rank_labels != REJECT)[0]
    most = int(REJECTS_PER_INDEX * len(indices))
    if len(rejects) > most:
        rejects = rng.choice(rejects, most, replace=False)
    rows = np.sort(np.concatenate([indices, rejects]))
    weights = np.ones(rank_features.shape[1])
    weights[RANK_LAYOUT] = LAYOUT_WEIGHT
    fit_rank, fit_suit = fits
    rank_net = fit_rank(rank_features[rows], rank_labels[rows], weights=weights, seed=seed)
    suit_net = fit_suit(suit_features[indices], suit_labels[indices], weights=None,
                        seed=seed + 1)
    return rank_net, suit_net
