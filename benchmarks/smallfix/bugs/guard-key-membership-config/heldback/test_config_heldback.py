from dsconfig import TrainingConfig


def test_missing_zero_section_gives_all_zero_defaults():
    cfg = TrainingConfig({"train_batch_size": 16, "fp16": {"enabled": True, "loss_scale": 128}},
                         world_size=2)
    assert (cfg.zero_stage, cfg.reduce_bucket_size, cfg.overlap_comm) == (0, 500_000_000, False)
    assert cfg.micro_batch_size == 8 and cfg.initial_loss_scale == 128


def test_partial_zero_section_still_merges_defaults():
    cfg = TrainingConfig({"train_batch_size": 4, "zero_optimization": {"reduce_bucket_size": 10}})
    assert (cfg.zero_stage, cfg.reduce_bucket_size) == (0, 10)
