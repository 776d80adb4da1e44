"""Optional compiled kernels; built by setup.py when FASTZERO_BUILD_OPS=1."""
