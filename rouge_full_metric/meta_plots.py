"""Figures for meta-evaluation (the ``[plots]`` extra: matplotlib, imported only here).

* :func:`scatter`: each system's mean metric score against its mean human score, the least-squares
  line and the correlations in the title;
* :func:`forest`: every variant's correlation with its confidence interval, one panel per level
  and coefficient, the best of each panel filled.

Both draw on a :class:`matplotlib.figure.Figure` (no pyplot, no global backend change) and save to
``path`` (PNG, PDF, SVG by the extension).
"""
import math
from typing import Optional, Sequence

import numpy as np

from . import correlation
from .meta_eval import label

__all__ = ["scatter", "forest", "metric_label"]

_INSTALL = 'the plots need matplotlib: pip install ".[plots]" (from a checkout of rouge_full_metric)'
_NAMES = {"pearson": "Pearson r", "spearman": "Spearman ρ", "kendall": "Kendall τ", "kendall-c": "Kendall τ-c"}
_BLUE, _GREY = "#1f4e79", "#8c8c8c"


def _figure(width, height):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError(_INSTALL) from None
    fig = Figure(figsize=(width, height), dpi=100)
    return fig


def _style(ax):
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.tick_params(labelsize=9)
    ax.grid(True, color="#e6e6e6", linewidth=0.6)
    ax.set_axisbelow(True)


def metric_label(key) -> str:
    """``("rouge2", "stem", "recall")`` -> ``"ROUGE-2 recall (stem)"``."""
    variant, setting, measure = key
    if setting == "precomputed":
        return variant
    return "%s %s (%s)" % (label(variant), measure, setting)


def scatter(metric, human, path: str, metric_label: str = "metric", human_label: str = "human",
            coefficient: str = "kendall", systems: Optional[Sequence[str]] = None) -> None:
    """System-level scatter: x = each system's mean ``metric``, y = its mean ``human`` score
    (systems x inputs matrices), with the least-squares line; the title gives Pearson and
    ``coefficient`` at the system level.  ``systems`` labels the points."""
    x, z = np.nanmean(np.asarray(metric, float), axis=1), np.nanmean(np.asarray(human, float), axis=1)
    fig = _figure(5.2, 4.2)
    ax = fig.add_subplot(1, 1, 1)
    _style(ax)
    ax.scatter(x, z, s=28, color=_BLUE, alpha=0.85, edgecolor="white", linewidth=0.6, zorder=3)
    ok = ~np.isnan(x) & ~np.isnan(z)
    if ok.sum() >= 2 and np.ptp(x[ok]) > 0:
        slope, intercept = np.polyfit(x[ok], z[ok], 1)
        xs = np.linspace(x[ok].min(), x[ok].max(), 50)
        ax.plot(xs, slope * xs + intercept, color="#c0392b", linewidth=1.4, zorder=2)
    if systems is not None:
        for xi, zi, name in zip(x, z, systems):
            ax.annotate(name, (xi, zi), fontsize=6, color="#444444", xytext=(3, 2), textcoords="offset points")
    r = correlation.correlate(metric, human, "system", "pearson")
    title = "%s = %.3f" % (_NAMES["pearson"], r)
    if coefficient != "pearson":
        title += ",  %s = %.3f" % (_NAMES[coefficient], correlation.correlate(metric, human, "system", coefficient))
    ax.set_title("System level, %d systems\n%s" % (len(x), title), fontsize=10)
    ax.set_xlabel("%s, mean over inputs" % metric_label, fontsize=10)
    ax.set_ylabel("%s, mean over inputs" % human_label, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=200)


def forest(rows: Sequence[dict], path: str, title: Optional[str] = None) -> None:
    """Forest plot of :func:`.meta_eval.correlation_rows` rows: one panel per (level, coefficient),
    one line per variant, one colour per (setting, measure) series: the correlation and its
    interval; each panel's best value filled, the others hollow."""
    panels = list(dict.fromkeys((r["level"], r["coefficient"]) for r in rows))
    if not panels:
        raise ValueError("rows: nothing to plot")
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    series = list(dict.fromkeys(_series(r) for r in rows))
    colours = ["#1f4e79", "#c0392b", "#2e8b57", "#8e44ad", "#d68910", "#5d6d7e"]
    step = 0.8 / max(1, len(series))
    fig = _figure(3.3 * len(panels) + 1.5, 0.16 * len(variants) * max(2, len(series)) + 1.6)
    axes = [fig.add_subplot(1, len(panels), k + 1) for k in range(len(panels))]
    for k, (ax, (level, coefficient)) in enumerate(zip(axes, panels)):
        _style(ax)
        ax.grid(False, axis="y")
        panel = [r for r in rows if (r["level"], r["coefficient"]) == (level, coefficient) and r["value"] is not None]
        best = max(r["value"] for r in panel) if panel else None
        for r in panel:
            j = series.index(_series(r))
            y = len(variants) - 1 - variants.index(r["variant"]) + (len(series) - 1) / 2 * step - j * step
            colour = colours[j % len(colours)]
            if r["low"] is not None:
                ax.plot([r["low"], r["high"]], [y, y], color=colour, alpha=0.55, linewidth=1.3,
                        solid_capstyle="butt")
            ax.plot([r["value"]], [y], "o", markersize=4.2, color=colour, markeredgewidth=1.1, zorder=3,
                    markerfacecolor=colour if r["value"] == best else "white")
        for y in range(len(variants) - 1):
            ax.axhline(y + 0.5, color="#f0f0f0", linewidth=0.6, zorder=0)
        ax.set_ylim(-0.5, len(variants) - 0.5)
        ax.set_yticks(range(len(variants)))
        ax.set_yticklabels([label(v) for v in reversed(variants)] if k == 0 else [], fontsize=8.5)
        ax.tick_params(axis="y", length=0)
        ax.set_xlabel("%s, %s level" % (_NAMES.get(coefficient, coefficient), level), fontsize=9.5)
        lows = [r["low"] for r in panel if r["low"] is not None] + [r["value"] for r in panel]
        if lows and min(lows) < 0:
            ax.axvline(0, color="#555555", linewidth=0.7)
    handles = [axes[0].plot([], [], "o", color=colours[j % len(colours)], markerfacecolor="white",
                            markeredgewidth=1.1)[0] for j in range(len(series))]
    fig.legend(handles, series, loc="lower center", ncol=min(len(series), 4), frameon=False, fontsize=8.5,
               title="filled: the best of its panel; lines: %s intervals" % "95%", title_fontsize=8)
    if title:
        fig.suptitle(title, fontsize=11)
    fig.tight_layout(rect=(0, 0.45 / fig.get_figheight() + 0.02, 1, 1))
    fig.savefig(path, dpi=200)


def _series(r) -> str:
    if r["setting"] == "precomputed":
        return "precomputed"
    return "%s, %s" % (r["setting"], r["measure"])


def _row_name(r) -> str:
    if r["setting"] == "precomputed":
        return r["variant"]
    return "%s %s (%s)" % (label(r["variant"]), _short(r["measure"]), r["setting"])


def _short(measure):
    return {"recall": "R", "precision": "P", "fmeasure": "F"}.get(measure, measure)
