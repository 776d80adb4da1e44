"""ZeRO stage-1 style optimizer: each data-parallel rank updates one shard of the flat fp32 parameters."""
