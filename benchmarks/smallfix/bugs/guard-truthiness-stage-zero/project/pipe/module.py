"""Pipeline-parallel model description, in the style of DeepSpeed's PipelineModule.

A model is a list of LayerSpecs. The layers are split into ``num_stages``
contiguous ranges by parameter count ("parameters" method) or uniformly
("uniform"); each process builds only the layers of its own stage, but can
ask for the range of any stage (checkpoint conversion needs that).
"""
import torch


class LayerSpec:
    def __init__(self, typename, *args, **kwargs):
        self.typename = typename
        self.args = args
        self.kwargs = kwargs

    def build(self):
        return self.typename(*self.args, **self.kwargs)

    def num_params(self):
        return sum(p.numel() for p in self.build().parameters())


class PipelineModule(torch.nn.Module):
    def __init__(self, layers, num_stages, stage_id, partition_method="parameters"):
        super().__init__()
        if not 0 <= stage_id < num_stages:
            raise ValueError("stage_id %d outside [0, %d)" % (stage_id, num_stages))
        if len(layers) < num_stages:
            raise ValueError("%d layers cannot fill %d stages" % (len(layers), num_stages))
        self.specs = list(layers)
        self.num_stages = num_stages
        self.stage_id = stage_id
        self.parts = self._partition(partition_method)
        start, stop = self.layer_range()
        self.local_layers = torch.nn.ModuleList(s.build() for s in self.specs[start:stop])

    def _partition(self, method):
        n = len(self.specs)
        if method == "uniform":
            weights = [1] * n
        elif method == "parameters":
            weights = [max(s.num_params(), 1) for s in self.specs]
        else:
            raise NotImplementedError("partition method %r" % method)
        total = sum(weights)
        parts, acc, stage = [0], 0, 1
        for idx, w in enumerate(weights):
            acc += w
            left_layers, left_stages = n - idx - 1, self.num_stages - stage
            if stage < self.num_stages and (acc >= total * stage / self.num_stages
                                            or left_layers == left_stages):
                parts.append(idx + 1)
                stage += 1
        parts.append(n)
        return parts

    def layer_range(self, stage_id=None):
        """(start, stop) indices into the layer list for ``stage_id`` (default: own stage)."""
        if not stage_id:
            stage_id = self.stage_id
        return self.parts[stage_id], self.parts[stage_id + 1]

    def forward(self, x):
        for layer in self.local_layers:
            x = layer(x)
        return x
