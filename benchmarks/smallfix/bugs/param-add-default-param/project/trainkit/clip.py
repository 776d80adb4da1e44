"""Global gradient-norm clipping over all parameters of a model."""
import torch


def get_grad_norm(grads, norm_type):
    if not grads:
        return torch.tensor(0.0)
    per_tensor = torch.stack([torch.norm(g, norm_type) for g in grads])
    return torch.norm(per_tensor, norm_type)


def clip_grad_norm_(parameters, max_norm):
    """Scale gradients in place so that their global norm is at most ``max_norm``.

    Returns the total norm measured before clipping.
    """
    norm_type = 2.0
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad.detach() for p in parameters if p.grad is not None]
    total_norm = get_grad_norm(grads, norm_type)
    clip_coef = max_norm / (total_norm + 1e-6)
    if clip_coef < 1.0:
        for g in grads:
            g.mul_(clip_coef)
    return total_norm
