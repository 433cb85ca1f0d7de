package dev.loci.bench;

/**
 * A count of acknowledged operations over a measured window.
 *
 * @param operations operations acknowledged inside the window
 * @param seconds the window's length
 * @param processCpuSeconds CPU time the whole benchmark process used inside the window (writers,
 *     JIT, GC), or -1 if the JVM does not report it
 */
public record Throughput(long operations, double seconds, double processCpuSeconds) {
  /** Checks the figures are not negative and the window is not empty. */
  public Throughput {
    if (operations < 0 || !(seconds > 0)) {
      throw new IllegalArgumentException(
          "expected operations >= 0 and seconds > 0, found " + operations + " in " + seconds);
    }
  }

  /** Operations per second. */
  public double perSecond() {
    return operations / seconds;
  }

  /** Process CPU microseconds per operation, or -1 if unknown or nothing was acknowledged. */
  public double cpuMicrosPerOperation() {
    return processCpuSeconds < 0 || operations == 0 ? -1 : processCpuSeconds * 1e6 / operations;
  }

  /** For a report: {@code 66,676 in 10.00 s, 72 us CPU each}. */
  String detail() {
    String d = Format.count(operations) + " in " + Format.fixed(seconds, 2) + " s";
    double cpu = cpuMicrosPerOperation();
    return cpu < 0 ? d : d + ", " + Format.fixed(cpu, 0) + " us CPU each";
  }

  /** One JSON object with every figure and the rate. */
  public String toJson() {
    return "{\"operations\": "
        + operations
        + ", \"seconds\": "
        + Format.number(seconds)
        + ", \"per_second\": "
        + Format.number(perSecond())
        + ", \"process_cpu_seconds\": "
        + Format.number(processCpuSeconds)
        + "}";
  }
}
