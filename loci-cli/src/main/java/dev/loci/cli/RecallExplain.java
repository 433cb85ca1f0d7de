package dev.loci.cli;

import dev.loci.recall.ActivationStep;
import dev.loci.recall.PalaceMemory;
import dev.loci.recall.PalaceRecallResult;
import dev.loci.recall.RouteMemory;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code loci recall --explain} prints after the items: the palace memories behind them, the
 * routes replayed, and the activation trace step by step with where and why propagation stopped.
 */
final class RecallExplain {
  /** How many trace steps are printed at most; the stop-reason counts cover the whole trace. */
  static final int TRACE_LINES = 50;

  private RecallExplain() {}

  /** Prints the palace view and the activation trace of {@code r}. */
  static void print(PrintWriter out, PalaceRecallResult r) {
    if (!r.retrievedMemories().isEmpty()) {
      out.println("memories:");
      for (PalaceMemory m : r.retrievedMemories()) {
        out.println("  " + PalaceCommands.memory(m) + m.spaceId().map(s -> "  in " + s).orElse(""));
      }
    }
    for (RouteMemory route : r.routes()) {
      out.println("route " + route.id() + ": " + String.join(" -> ", route.steps()));
    }
    List<ActivationStep> trace = r.result().activationTrace();
    if (trace.isEmpty()) {
      return;
    }
    out.println("activation trace:");
    Map<String, Integer> stops = new LinkedHashMap<>();
    int printed = 0;
    for (ActivationStep s : trace) {
      s.stopReason().ifPresent(reason -> stops.merge(reason, 1, Integer::sum));
      if (printed++ < TRACE_LINES) {
        out.printf(
            Locale.ROOT,
            "  hop %d  %-14s %s  %.4f%s%n",
            s.hop(),
            s.edgeType(),
            s.nodeId(),
            s.activation(),
            s.stopReason().map(reason -> "  stopped: " + reason).orElse(""));
      }
    }
    if (trace.size() > TRACE_LINES) {
      out.println("  ... " + (trace.size() - TRACE_LINES) + " more steps");
    }
    StringBuilder b = new StringBuilder("stop reasons:");
    if (stops.isEmpty()) {
      b.append(" none");
    }
    stops.forEach((reason, n) -> b.append(' ').append(reason).append(' ').append(n));
    out.println(b);
  }
}
