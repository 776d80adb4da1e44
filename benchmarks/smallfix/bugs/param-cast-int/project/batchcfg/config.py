"""Resolve train_batch_size = micro_batch_per_gpu * gradient_accumulation_steps * dp_world_size.

Any two of the three may be given; the third is derived. Giving all three
requires them to be consistent.
"""

TRAIN_BATCH_SIZE = "train_batch_size"
MICRO_BATCH = "train_micro_batch_size_per_gpu"
GAS = "gradient_accumulation_steps"


class ConfigError(ValueError):
    pass


class BatchConfig:
    def __init__(self, cfg, dp_world_size=1):
        self.dp_world_size = dp_world_size
        self.train_batch_size = cfg.get(TRAIN_BATCH_SIZE)
        self.micro_batch = cfg.get(MICRO_BATCH)
        self.gradient_accumulation_steps = cfg.get(GAS)
        self._resolve()
        self._check()

    def _resolve(self):
        train, micro, gas = self.train_batch_size, self.micro_batch, self.gradient_accumulation_steps
        ws = self.dp_world_size
        if train is not None and micro is not None and gas is None:
            gas = train / (micro * ws)
        elif train is not None and gas is not None and micro is None:
            micro = train // (gas * ws)
        elif micro is not None and gas is not None and train is None:
            train = micro * gas * ws
        elif micro is not None and train is None and gas is None:
            gas = 1
            train = micro * ws
        elif train is not None and micro is None and gas is None:
            gas = 1
            micro = train // ws
        elif train is None:
            raise ConfigError("either %s or %s must be set" % (TRAIN_BATCH_SIZE, MICRO_BATCH))
        self.train_batch_size, self.micro_batch, self.gradient_accumulation_steps = train, micro, gas

    def _check(self):
        if self.micro_batch <= 0 or self.gradient_accumulation_steps <= 0:
            raise ConfigError("batch sizes must be positive")
        if self.train_batch_size != self.micro_batch * self.gradient_accumulation_steps * self.dp_world_size:
            raise ConfigError(
                "%s (%d) != %s (%d) * %s (%d) * world size (%d)" % (
                    TRAIN_BATCH_SIZE, self.train_batch_size, MICRO_BATCH, self.micro_batch,
                    GAS, self.gradient_accumulation_steps, self.dp_world_size))

    def to_dict(self):
        return {TRAIN_BATCH_SIZE: self.train_batch_size, MICRO_BATCH: self.micro_batch,
                GAS: self.gradient_accumulation_steps}
