package dev.loci.ui.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpsChartsTest {
  @Test
  void recallLatency_bucketsOfRecallRoutesSummedAndDecumulated() {
    String metrics =
        String.join(
            "\n",
            "loci_http_request_duration_seconds_bucket{method=\"POST\",route=\"/v1/ns/{ns}/recall\",status=\"200\",le=\"0.001\"} 2",
            "loci_http_request_duration_seconds_bucket{method=\"POST\",route=\"/v1/ns/{ns}/recall\",status=\"200\",le=\"0.01\"} 5",
            "loci_http_request_duration_seconds_bucket{method=\"POST\",route=\"/v1/ns/{ns}/recall\",status=\"200\",le=\"+Inf\"} 6",
            "loci_http_request_duration_seconds_bucket{method=\"GET\",route=\"/ui/ns/{ns}/recall\",status=\"200\",le=\"0.001\"} 1",
            "loci_http_request_duration_seconds_bucket{method=\"GET\",route=\"/ui/ns/{ns}/recall\",status=\"200\",le=\"0.01\"} 1",
            "loci_http_request_duration_seconds_bucket{method=\"GET\",route=\"/health\",status=\"200\",le=\"0.001\"} 90");
    Map<String, Long> buckets = OpsCharts.recallLatency(metrics);
    assertThat(buckets).containsExactly(Map.entry("≤ 1 ms", 3L), Map.entry("≤ 10 ms", 3L));
  }

  @Test
  void journalActivity_countsLinesOfTheLastHourByMinuteAndNamespace(@TempDir Path dir)
      throws Exception {
    Instant now = Instant.parse("2026-11-22T10:30:30Z");
    Path seg = dir.resolve("00000000000000000001.jsonl");
    Files.writeString(
        seg,
        "{\"seq\":1,\"ts\":\"2026-11-22T09:00:00.000001Z\",\"ns\":\"a\"}\n"
            + "{\"seq\":2,\"ts\":\"2026-11-22T10:29:01.000001Z\",\"ns\":\"a\"}\n"
            + "{\"seq\":3,\"ts\":\"2026-11-22T10:29:59.000001Z\",\"ns\":\"a\"}\n"
            + "{\"seq\":4,\"ts\":\"2026-11-22T10:30:10.000001Z\",\"ns\":\"a\"}\n");
    JournalActivity.Snapshot a = JournalActivity.read(List.of(seg), now);
    Map<Instant, Integer> m = a.perMinute();
    assertThat(m).hasSize(60);
    assertThat(m.get(Instant.parse("2026-11-22T10:29:00Z"))).isEqualTo(2);
    assertThat(m.get(Instant.parse("2026-11-22T10:30:00Z"))).isEqualTo(1);
    assertThat(m.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(3);
    assertThat(a.byNamespace())
        .containsEntry(
            "a", new JournalActivity.Recent(3, Instant.parse("2026-11-22T10:30:10.000001Z")));
  }
}
