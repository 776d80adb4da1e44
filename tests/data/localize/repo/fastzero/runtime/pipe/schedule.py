"""1F1B pipeline schedule: yields instructions for one stage."""
import torch
import torch.distributed as dist


class PipeInstruction:
    def __init__(self, name, buffer_id=None, micro_batch=None):
        self.name = name
        self.buffer_id = buffer_id
        self.micro_batch = micro_batch

    def __repr__(self):
        return f"{self.name}(buffer_id={self.buffer_id}, micro_batch={self.micro_batch})"


class TrainSchedule:
    def __init__(self, micro_batches, stages, stage_id):
        assert micro_batches >= stages, (
            f"pipeline needs at least as many micro-batches as stages "
            f"(micro_batches={micro_batches}, stages={stages})")
        self.micro_batches = micro_batches
        self.stages = stages
        self.stage_id = stage_id

    def num_pipe_buffers(self):
        return max(2, self.stages - self.stage_id - 1)

    def steps(self):
        if self.stage_id == self.stages - 1:
            self._last_stage_steps()
            return
        return self._steps()

    def _steps(self):
        cmds = []
        warmup = self.stages - self.stage_id - 1
        for mb in range(self.micro_batches):
            buf = mb % self.num_pipe_buffers()
            cmds.append(PipeInstruction("ForwardPass", buf, mb))
            if mb >= warmup:
                cmds.append(PipeInstruction("BackwardPass", (mb - warmup) % self.num_pipe_buffers(), mb))
        return cmds

    def _last_stage_steps(self):
        return [PipeInstruction("ForwardPass", mb % 2, mb) for mb in range(self.micro_batches)]


class PipelineExecutor:
    def __init__(self, stage_fn, schedule, prev_rank=None, next_rank=None):
        self.stage_fn = stage_fn
        self.schedule = schedule
        self.prev_rank = prev_rank
        self.next_rank = next_rank
        self.buffers = [None] * 2
        self.outputs = []

    def run(self, micro_batches):
        for cmd in self.schedule.steps():
            if cmd.name == "ForwardPass":
                self._exec_forward(cmd, micro_batches)

    def _exec_forward(self, cmd, micro_batches):
        x = micro_batches[cmd.micro_batch]
        if self.prev_rank is not None:
            x = torch.empty_like(x)
            dist.recv(x, src=self.prev_rank)
        out = self.stage_fn(x)
        self.buffers[cmd.buffer_id] = out
        if self.next_rank is not None:
            dist.send(out.contiguous(), dst=self.next_rank)
        self.outputs.append(out)
