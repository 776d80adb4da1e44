from .flat_optimizer import FlatMasterOptimizer, get_param_groups

__all__ = ["FlatMasterOptimizer", "get_param_groups"]
