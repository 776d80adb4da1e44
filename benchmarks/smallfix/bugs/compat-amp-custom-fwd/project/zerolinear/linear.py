"""Linear autograd function that re-reads the (re-gathered) weight in backward.

The forward/backward run under the autocast state of the forward pass, like
any custom autograd function used inside ``autocast`` regions.
"""
import functools

import torch
from torch import nn

from zerolinear.shapes import check_linear_shapes, flatten_leading_dims

autocast_custom_fwd = functools.partial(torch.amp.custom_fwd, device_type="cuda")
autocast_custom_bwd = functools.partial(torch.amp.custom_bwd, device_type="cuda")


class LinearFunctionForZeroStage3(torch.autograd.Function):
    @staticmethod
    @autocast_custom_fwd
    def forward(ctx, input_, weight, bias=None):
        check_linear_shapes(input_, weight, bias)
        ctx.save_for_backward(input_, weight, bias)
        output = input_.matmul(weight.t())
        if bias is not None:
            output = output + bias
        return output

    @staticmethod
    @autocast_custom_bwd
    def backward(ctx, grad_output):
        input_, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.matmul(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = flatten_leading_dims(grad_output).t().matmul(flatten_leading_dims(input_))
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = flatten_leading_dims(grad_output).sum(0)
        return grad_input, grad_weight, grad_bias


class LinearModuleForZeroStage3(nn.Linear):
    def forward(self, input_):
        return LinearFunctionForZeroStage3.apply(input_, self.weight, self.bias)
