"""fp16 training with fp32 master weights and static loss scaling."""
