package dev.loci.server.internal;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Counters and histograms in the Prometheus text exposition format (version 0.0.4), written by
 * hand: request counts and latency by route template, method and status; journal append latency;
 * and gauges read when scraped. Thread-safe; recording is lock-free.
 */
public final class Metrics {
  private static final double[] HTTP_BUCKETS = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
  };
  private static final double[] JOURNAL_BUCKETS = {
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1
  };

  private final ConcurrentHashMap<String, Histogram> requests = new ConcurrentHashMap<>();
  private final Histogram journalAppends = new Histogram(JOURNAL_BUCKETS);
  private final LongAdder journalBatches = new LongAdder();
  private final Map<String, Gauge> gauges = new java.util.concurrent.ConcurrentSkipListMap<>();

  /** A value read when the metrics are scraped. */
  private record Gauge(String help, LongSupplier value) {}

  /** Registers a gauge; call before the server starts. */
  public void gauge(String name, String help, LongSupplier value) {
    gauges.put(name, new Gauge(help, value));
  }

  /** Records one finished request. */
  public void request(String method, String route, int status, double seconds) {
    String labels =
        "method=\""
            + escape(method)
            + "\",route=\""
            + escape(route)
            + "\",status=\""
            + status
            + "\"";
    requests.computeIfAbsent(labels, k -> new Histogram(HTTP_BUCKETS)).observe(seconds);
  }

  /** Records one group of journal appends. */
  public void journalAppend(int batches, long nanos) {
    journalBatches.add(batches);
    journalAppends.observe(nanos / 1e9);
  }

  /** The exposition text. */
  public String scrape() {
    StringBuilder sb = new StringBuilder(4096);
    header(sb, "loci_http_requests_total", "HTTP requests served, by route template.", "counter");
    TreeMap<String, Histogram> sorted = new TreeMap<>(requests);
    sorted.forEach(
        (labels, h) ->
            sb.append("loci_http_requests_total{")
                .append(labels)
                .append("} ")
                .append(h.count.sum())
                .append('\n'));
    header(
        sb,
        "loci_http_request_duration_seconds",
        "HTTP request latency, by route template.",
        "histogram");
    sorted.forEach((labels, h) -> h.write(sb, "loci_http_request_duration_seconds", labels));
    header(
        sb,
        "loci_journal_append_duration_seconds",
        "Time from the first append of a group of journal batches until the group was durable.",
        "histogram");
    journalAppends.write(sb, "loci_journal_append_duration_seconds", "");
    header(sb, "loci_journal_batches_total", "Journal batches appended.", "counter");
    sb.append("loci_journal_batches_total ").append(journalBatches.sum()).append('\n');
    gauges.forEach(
        (name, g) -> {
          header(sb, name, g.help(), "gauge");
          sb.append(name).append(' ').append(g.value().getAsLong()).append('\n');
        });
    return sb.toString();
  }

  private static void header(StringBuilder sb, String name, String help, String type) {
    sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
    sb.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static String escape(String v) {
    return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  /** A cumulative histogram with fixed buckets. */
  private static final class Histogram {
    final double[] bounds;
    final LongAdder[] buckets;
    final LongAdder count = new LongAdder();
    final DoubleAdder sum = new DoubleAdder();

    Histogram(double[] bounds) {
      this.bounds = bounds;
      this.buckets = new LongAdder[bounds.length];
      for (int i = 0; i < bounds.length; i++) {
        buckets[i] = new LongAdder();
      }
    }

    void observe(double value) {
      for (int i = 0; i < bounds.length; i++) {
        if (value <= bounds[i]) {
          buckets[i].increment();
          break;
        }
      }
      count.increment();
      sum.add(value);
    }

    void write(StringBuilder sb, String name, String labels) {
      String sep = labels.isEmpty() ? "" : labels + ",";
      long cumulative = 0;
      for (int i = 0; i < bounds.length; i++) {
        cumulative += buckets[i].sum();
        sb.append(name)
            .append("_bucket{")
            .append(sep)
            .append("le=\"")
            .append(bounds[i])
            .append("\"} ")
            .append(cumulative)
            .append('\n');
      }
      long total = Math.max(cumulative, count.sum()); // a racing observe never breaks monotony
      String braces = labels.isEmpty() ? "" : "{" + labels + "}";
      sb.append(name)
          .append("_bucket{")
          .append(sep)
          .append("le=\"+Inf\"} ")
          .append(total)
          .append('\n');
      sb.append(name).append("_sum").append(braces).append(' ').append(sum.sum()).append('\n');
      sb.append(name).append("_count").append(braces).append(' ').append(total).append('\n');
    }
  }
}
