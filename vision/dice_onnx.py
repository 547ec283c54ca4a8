"""Write a small convolutional network as an ONNX file, with no ONNX package: the protobuf
wire format written by hand, for OpenCV's dnn module (``cv2.dnn.readNetFromONNX``) to run.

Only what the dice detector needs: 3x3 and 1x1 convolutions (with padding and dilation), ReLU
and 2x2 max pooling, float32 weights, one input ``planes`` (N x C x H x W, any height and
width) and one output ``out``.

>>> data = model_bytes([conv("x", "y", np.ones((1, 1, 1, 1), np.float32), np.zeros(1))], 1)
>>> data[:2] == bytes([0x08, IR_VERSION])
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

IR_VERSION = 7
OPSET = 13
FLOAT = 1
ATTRIBUTE_INTS = 7
INPUT = "planes"
OUTPUT = "out"


def _varint(value: int) -> bytes:
    out = bytearray()
    value &= (1 << 64) - 1
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _key(field: int, wire: int) -> bytes:
    return _varint(field << 3 | wire)


def _int(field: int, value: int) -> bytes:
    return _key(field, 0) + _varint(value)


def _bytes(field: int, value: bytes) -> bytes:
    return _key(field, 2) + _varint(len(value)) + value


def _text(field: int, value: str) -> bytes:
    return _bytes(field, value.encode())


@dataclass(frozen=True)
class Node:
    """One operation: its type, inputs, output, integer-list attributes and weights."""

    op: str
    inputs: tuple[str, ...]
    output: str
    attributes: tuple[tuple[str, tuple[int, ...]], ...] = ()
    weights: tuple[tuple[str, npt.NDArray[Any]], ...] = ()


def conv(
    source: str, output: str, kernel: npt.NDArray[Any], bias: npt.NDArray[Any], dilation: int = 1
) -> Node:
    """A convolution with "same" padding; ``kernel`` is outputs x inputs x k x k."""
    size = int(kernel.shape[2])
    pad = dilation * (size // 2)
    return Node(
        "Conv",
        (source, f"{output}.w", f"{output}.b"),
        output,
        (
            ("kernel_shape", (size, size)),
            ("pads", (pad, pad, pad, pad)),
            ("dilations", (dilation, dilation)),
            ("strides", (1, 1)),
        ),
        ((f"{output}.w", kernel), (f"{output}.b", bias)),
    )


def relu(source: str, output: str) -> Node:
    return Node("Relu", (source,), output)


def max_pool(source: str, output: str) -> Node:
    """2x2 max pooling, stride 2."""
    return Node("MaxPool", (source,), output, (("kernel_shape", (2, 2)), ("strides", (2, 2))))


def _tensor(name: str, array: npt.NDArray[Any]) -> bytes:
    values = np.ascontiguousarray(array, dtype="<f4")
    dims = b"".join(_int(1, int(d)) for d in values.shape)
    return dims + _int(2, FLOAT) + _text(8, name) + _bytes(9, values.tobytes())


def _attribute(name: str, values: tuple[int, ...]) -> bytes:
    return _text(1, name) + b"".join(_int(8, v) for v in values) + _int(20, ATTRIBUTE_INTS)


def _node(node: Node) -> bytes:
    inputs = b"".join(_text(1, name) for name in node.inputs)
    attributes = b"".join(_bytes(5, _attribute(n, v)) for n, v in node.attributes)
    return inputs + _text(2, node.output) + _text(3, node.output) + _text(4, node.op) + attributes


def _value_info(name: str, channels: int | None) -> bytes:
    dims = [
        _bytes(1, _int(1, 1)),
        _bytes(1, _int(1, channels) if channels else _text(2, "channels")),
        _bytes(1, _text(2, "height")),
        _bytes(1, _text(2, "width")),
    ]
    shape = b"".join(dims)
    tensor_type = _int(1, FLOAT) + _bytes(2, shape)
    return _text(1, name) + _bytes(2, _bytes(1, tensor_type))


def model_bytes(nodes: list[Node], channels: int) -> bytes:
    """The ONNX model of ``nodes`` (the first reads :data:`INPUT` with ``channels`` planes,
    the last writes :data:`OUTPUT`)."""
    graph = b"".join(_bytes(1, _node(node)) for node in nodes)
    graph += _text(2, "dice")
    for node in nodes:
        for name, array in node.weights:
            graph += _bytes(5, _tensor(name, array))
    graph += _bytes(11, _value_info(INPUT, channels))
    graph += _bytes(12, _value_info(OUTPUT, None))
    opset = _text(1, "") + _int(2, OPSET)
    return _int(1, IR_VERSION) + _text(2, "table-companion") + _bytes(7, graph) + _bytes(8, opset)
