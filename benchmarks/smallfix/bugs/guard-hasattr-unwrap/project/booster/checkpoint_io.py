"""Model checkpoint IO in the style of Colossal-AI's GeneralCheckpointIO.

Checkpoints always hold the *unwrapped* module's state dict, so that a
checkpoint written through a plugin can be loaded into a plain module and
the other way round. Large models are written as shards with an index file.
"""
import json
import os

import torch

INDEX = "model.index.json"


class GeneralCheckpointIO:
    def __init__(self, max_shard_numel=None):
        self.max_shard_numel = max_shard_numel

    def _shards(self, state_dict):
        shard, numel = {}, 0
        for name, tensor in state_dict.items():
            if shard and self.max_shard_numel and numel + tensor.numel() > self.max_shard_numel:
                yield shard
                shard, numel = {}, 0
            shard[name] = tensor
            numel += tensor.numel()
        if shard:
            yield shard

    def save_model(self, model, checkpoint_dir):
        model = model.unwrap()
        os.makedirs(checkpoint_dir, exist_ok=True)
        weight_map = {}
        for i, shard in enumerate(self._shards(model.state_dict())):
            fname = "model-%05d.bin" % i
            torch.save(shard, os.path.join(checkpoint_dir, fname))
            weight_map.update({name: fname for name in shard})
        with open(os.path.join(checkpoint_dir, INDEX), "w") as f:
            json.dump({"weight_map": weight_map}, f, indent=1)
        return len(set(weight_map.values()))

    def load_model(self, model, checkpoint_dir, strict=True):
        if isinstance(model, torch.nn.Module) and hasattr(model, "unwrap"):
            model = model.unwrap()
        with open(os.path.join(checkpoint_dir, INDEX)) as f:
            weight_map = json.load(f)["weight_map"]
        state_dict = {}
        for fname in sorted(set(weight_map.values())):
            state_dict.update(torch.load(os.path.join(checkpoint_dir, fname)))
        return model.load_state_dict(state_dict, strict=strict)
