package dev.loci.bench;

import java.util.Arrays;

/**
 * Latencies of one kind of query, each query timed alone.
 *
 * @param queries how many queries were timed
 * @param p50Micros the median, in microseconds
 * @param p99Micros the 99th percentile (nearest rank), in microseconds
 * @param meanMicros the mean, in microseconds
 * @param maxMicros the slowest, in microseconds
 */
public record Latency(
    int queries, double p50Micros, double p99Micros, double meanMicros, double maxMicros) {
  /** Summarizes {@code nanos}, one entry per query; sorts the array. */
  static Latency of(long[] nanos) {
    if (nanos.length == 0) {
      throw new IllegalArgumentException("expected at least one latency, found none");
    }
    Arrays.sort(nanos);
    double sum = 0;
    for (long n : nanos) {
      sum += n;
    }
    return new Latency(
        nanos.length,
        percentile(nanos, 0.50) / 1e3,
        percentile(nanos, 0.99) / 1e3,
        sum / nanos.length / 1e3,
        nanos[nanos.length - 1] / 1e3);
  }

  private static long percentile(long[] sorted, double p) {
    int rank = (int) Math.ceil(p * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  String detail() {
    return "p50 "
        + PathwayBenchmark.micros(p50Micros)
        + ", p99 "
        + PathwayBenchmark.micros(p99Micros);
  }

  String toJson() {
    return "{\"queries\": "
        + queries
        + ", \"p50_us\": "
        + Format.number(p50Micros)
        + ", \"p99_us\": "
        + Format.number(p99Micros)
        + ", \"mean_us\": "
        + Format.number(meanMicros)
        + ", \"max_us\": "
        + Format.number(maxMicros)
        + "}";
  }
}
