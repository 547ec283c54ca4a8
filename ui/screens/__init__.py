"""The app's screens, one module each, named as ``companion snapshot`` names them."""
