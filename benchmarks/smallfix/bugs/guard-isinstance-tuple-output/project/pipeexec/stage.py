"""Forward/backward bookkeeping of one pipeline stage (the per-stage part of a
1F1B pipeline engine). The communication layer hands in the activations
received from the previous stage and sends on whatever ``forward_step``
returns; for the backward pass it hands in the gradients received from the
next stage and sends back what ``backward_step`` returns.

A stage module may return a single tensor or a tuple of tensors (Megatron
style layers return e.g. ``(hidden_states, attention_mask)``).
"""
import torch


class StageExecutor:
    def __init__(self, module):
        self.module = module
        self.inputs = {}
        self.outputs = {}

    def forward_step(self, micro_batch_id, *received):
        """Run the stage; returns detached activations to send downstream."""
        inputs = []
        for t in received:
            if torch.is_floating_point(t):
                t = t.detach().requires_grad_()
            inputs.append(t)
        outputs = self.module(*inputs)
        self.inputs[micro_batch_id] = inputs
        self.outputs[micro_batch_id] = outputs
        return outputs.detach()

    def backward_step(self, micro_batch_id, *grad_outputs):
        """Backward through the stored graph; returns gradients to send upstream."""
        inputs = self.inputs.pop(micro_batch_id)
        outputs = self.outputs.pop(micro_batch_id)
        if isinstance(outputs, torch.Tensor):
            outputs = (outputs,)
        pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
        torch.autograd.backward([o for o, _ in pairs], grad_tensors=[g for _, g in pairs])
        return tuple(t.grad if t.requires_grad else None for t in inputs)

    def in_flight(self):
        return sorted(self.outputs)
