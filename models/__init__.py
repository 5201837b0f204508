"""The shipped ONNX networks and the recipes that train them.

oneDNN, PyTorch's CPU kernels, picks its kernels by the CPU's vector width, and kernels of different
widths add in different orders: limited to SSE4.1 it trains another network from the same seeded
recipe, and two kinds of machine have written two networks (sessions 48 and 50). The recipes pin
oneDNN to AVX2 kernels, which x86 CPUs of the last decade all run, before PyTorch loads
(`python -m models.train` imports this package first).
"""

import os

os.environ.setdefault("ONEDNN_MAX_CPU_ISA", "AVX2")
