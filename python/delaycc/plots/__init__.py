"""Every figure delaycc draws, one module per kind: ``run`` (a run's window, rate, RTT and queue over
time), ``overlay`` (two runs of one scenario drawn over each other), ``panels`` (stacked time panels, for
the papers' figures), ``errorbars`` (a metric's mean and spread against a swept value). ``figure`` holds
what they share: the time axes and saving a PNG atomically. Figures are matplotlib `Figure` objects made
outside pyplot: rendered off-screen (Agg) whatever backend the process uses, never shown, and the package
leaves pyplot's backend alone, so a notebook that imports delaycc keeps its inline figures."""

from .run import write_figures

__all__ = ["write_figures"]
