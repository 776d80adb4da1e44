"""JSON training config, in the style of DeepSpeed's ds_config.

Every section is optional; a missing section means "feature off / defaults".
Of train_batch_size, train_micro_batch_size_per_gpu and
gradient_accumulation_steps any two determine the third:
    train_batch_size = micro_batch * grad_accum * world_size
"""
import json

ZERO_DEFAULTS = {"stage": 0, "reduce_bucket_size": 500_000_000, "overlap_comm": False}
FP16_DEFAULTS = {"enabled": False, "loss_scale": 0, "initial_scale_power": 16}


class ConfigError(ValueError):
    pass


class TrainingConfig:
    def __init__(self, config, world_size=1):
        if isinstance(config, str):
            with open(config) as f:
                config = json.load(f)
        self.world_size = world_size
        self._resolve_batch(config)
        fp16 = dict(FP16_DEFAULTS, **config.get("fp16", {}))
        self.fp16_enabled = bool(fp16["enabled"])
        self.initial_loss_scale = 2 ** fp16["initial_scale_power"] if not fp16["loss_scale"] \
            else fp16["loss_scale"]
        zero = dict(ZERO_DEFAULTS, **config["zero_optimization"])
        self.zero_stage = int(zero["stage"])
        self.reduce_bucket_size = int(zero["reduce_bucket_size"])
        self.overlap_comm = bool(zero["overlap_comm"])
        if self.zero_stage not in (0, 1, 2, 3):
            raise ConfigError("zero_optimization.stage must be 0-3, got %d" % self.zero_stage)
        self.gradient_clipping = float(config.get("gradient_clipping", 0.0))

    def _resolve_batch(self, config):
        train = config.get("train_batch_size")
        micro = config.get("train_micro_batch_size_per_gpu")
        gas = config.get("gradient_accumulation_steps")
        ws = self.world_size
        if train is not None and micro is not None and gas is None:
            gas = train // (micro * ws)
        elif train is not None and gas is not None and micro is None:
            micro = train // (gas * ws)
        elif micro is not None and train is None:
            gas = gas or 1
            train = micro * gas * ws
        elif train is None:
            raise ConfigError("set train_batch_size or train_micro_batch_size_per_gpu")
        if gas is None and micro is None:
            gas, micro = 1, train // ws
        if train != micro * gas * ws:
            raise ConfigError("train_batch_size %d != %d * %d * %d (micro * grad_accum * world)"
                              % (train, micro, gas, ws))
        self.train_batch_size, self.micro_batch_size, self.gradient_accumulation_steps = \
            train, micro, gas
