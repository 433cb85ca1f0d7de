package dev.loci.ui.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The operations page's charts, as Chart.js configurations the page carries as data (the CSP allows
 * no inline script; {@code app.js} draws them): journal writes per minute over the last hour (see
 * {@link JournalActivity}), and the recall latency histogram, read from the server's own metrics.
 */
public final class OpsCharts {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern BUCKET =
      Pattern.compile(
          "^loci_http_request_duration_seconds_bucket\\{[^}]*route=\"([^\"]*)\"[^}]*le=\"([^\"]+)\"\\}"
              + " (\\d+)$");

  private OpsCharts() {}

  /** The write-rate chart's configuration. */
  public static String writeChart(Map<Instant, Integer> perMinute) {
    ObjectNode cfg = JSON.createObjectNode();
    cfg.put("type", "bar");
    ObjectNode data = cfg.putObject("data");
    ArrayNode labels = data.putArray("labels");
    ArrayNode values = JSON.createArrayNode();
    perMinute.forEach(
        (t, n) -> {
          labels.add(t.toString().substring(11, 16));
          values.add(n);
        });
    ObjectNode set = data.putArray("datasets").addObject();
    set.put("label", "journal batches per minute (UTC)");
    set.set("data", values);
    set.put("backgroundColor", "#2a5bd7");
    return cfg.toString();
  }

  /**
   * The recall latency histogram from the metrics text: requests per latency bucket over every
   * route whose template contains {@code recall}, statuses summed.
   */
  public static Map<String, Long> recallLatency(String metrics) {
    TreeMap<Double, Long> cumulative = new TreeMap<>();
    Map<String, TreeMap<Double, Long>> byRoute = new LinkedHashMap<>();
    for (String line : metrics.split("\n")) {
      Matcher m = BUCKET.matcher(line);
      if (m.matches() && m.group(1).contains("recall") && !m.group(2).equals("+Inf")) {
        double le = Double.parseDouble(m.group(2));
        cumulative.merge(le, Long.parseLong(m.group(3)), Long::sum);
        byRoute.computeIfAbsent(m.group(1), k -> new TreeMap<>());
      }
    }
    Map<String, Long> buckets = new LinkedHashMap<>();
    long previous = 0;
    for (Map.Entry<Double, Long> e : cumulative.entrySet()) {
      buckets.put("≤ " + ms(e.getKey()), e.getValue() - previous);
      previous = e.getValue();
    }
    return buckets;
  }

  private static String ms(double seconds) {
    double ms = seconds * 1000;
    return ms < 1
        ? String.format(Locale.ROOT, "%.1f ms", ms)
        : ms >= 1000
            ? String.format(Locale.ROOT, "%.1f s", seconds)
            : String.format(Locale.ROOT, "%.0f ms", ms);
  }

  /** The recall latency chart's configuration. */
  public static String latencyChart(Map<String, Long> buckets) {
    ObjectNode cfg = JSON.createObjectNode();
    cfg.put("type", "bar");
    ObjectNode data = cfg.putObject("data");
    ArrayNode labels = data.putArray("labels");
    ArrayNode values = JSON.createArrayNode();
    buckets.forEach(
        (k, v) -> {
          labels.add(k);
          values.add(v);
        });
    ObjectNode set = data.putArray("datasets").addObject();
    set.put("label", "recall requests by latency");
    set.set("data", values);
    set.put("backgroundColor", "#9a5b00");
    return cfg.toString();
  }
}
