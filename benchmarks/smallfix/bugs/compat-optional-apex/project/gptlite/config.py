from dataclasses import dataclass


@dataclass
class GPTConfig:
    vocab_size: int = 64
    hidden_size: int = 16
    num_heads: int = 2
    num_layers: int = 2
    max_seq_len: int = 32
    layernorm_epsilon: float = 1e-5

    def __post_init__(self):
        if self.hidden_size % self.num_heads:
            raise ValueError("hidden_size must be divisible by num_heads")
