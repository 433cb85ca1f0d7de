package dev.loci.ui.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The operations page's charts, as Chart.js configurations the page carries as data (the CSP allows
 * no inline script; {@code app.js} draws them): journal writes per minute over the last hour, read
 * from the timestamps of the newest journal lines, and the recall latency histogram, read from the
 * server's own metrics.
 */
public final class OpsCharts {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int TAIL_BYTES = 4 << 20;
  private static final Pattern BUCKET =
      Pattern.compile(
          "^loci_http_request_duration_seconds_bucket\\{[^}]*route=\"([^\"]*)\"[^}]*le=\"([^\"]+)\"\\}"
              + " (\\d+)$");

  private OpsCharts() {}

  /**
   * Journal batches per minute over the hour before {@code now}, from the last {@value #TAIL_BYTES}
   * bytes of the newest segments; empty if there is no file journal.
   */
  public static Map<Instant, Integer> writesPerMinute(List<Path> segments, Instant now) {
    Instant start = now.truncatedTo(ChronoUnit.MINUTES).minus(59, ChronoUnit.MINUTES);
    TreeMap<Instant, Integer> perMinute = new TreeMap<>();
    for (int i = 0; i < 60; i++) {
      perMinute.put(start.plus(i, ChronoUnit.MINUTES), 0);
    }
    long budget = TAIL_BYTES;
    for (int s = segments.size() - 1; s >= 0 && budget > 0; s--) {
      try (RandomAccessFile f = new RandomAccessFile(segments.get(s).toFile(), "r")) {
        long from = Math.max(0, f.length() - budget);
        byte[] buf = new byte[(int) (f.length() - from)];
        f.seek(from);
        f.readFully(buf);
        budget -= buf.length;
        boolean older = false;
        for (String line : new String(buf, StandardCharsets.UTF_8).split("\n")) {
          int at = line.indexOf("\"ts\":\"");
          if (at < 0 || at > 40) {
            continue;
          }
          int end = line.indexOf('"', at + 6);
          try {
            Instant ts = Instant.parse(line.substring(at + 6, end));
            Instant minute = ts.truncatedTo(ChronoUnit.MINUTES);
            if (minute.isBefore(start)) {
              older = true;
            } else {
              perMinute.computeIfPresent(minute, (k, v) -> v + 1);
            }
          } catch (DateTimeParseException | StringIndexOutOfBoundsException e) {
            // a torn or partial first line of the window: skip it
          }
        }
        if (older) {
          break;
        }
      } catch (IOException e) {
        break; // a segment deleted by compaction meanwhile: the chart shows what was read
      }
    }
    return perMinute;
  }

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
