package dev.loci.subjects.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.internal.Json;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class AuditEntryTest {
  private static String closed(AuditEntry e) {
    return e.head(new StringBuilder()).append('}').toString();
  }

  @Test
  void theHandWrittenLineIsWhatJacksonWritesForTheSameFields() throws Exception {
    AuditEntry e =
        new AuditEntry(
            "ref",
            7,
            42,
            Instant.parse("2026-11-26T06:00:00.123456Z"),
            "agent \"x\"\\\n\t\u0001 é 漢 😀",
            "ns.a",
            "trace.added,legal_read:history",
            List.of(
                new AuditEntry.Touched("trace", "t/1\"", 3),
                new AuditEntry.Touched("node", "n\u001f", 0)));
    String text = closed(e);
    JsonNode parsed = Json.MAPPER.readTree(text);
    assertThat(Json.write(parsed)).isEqualTo(text);
    assertThat(parsed.path("actor").asText()).isEqualTo("agent \"x\"\\\n\t\u0001 é 漢 😀");
    assertThat(parsed.path("at").asText()).isEqualTo("2026-11-26T06:00:00.123456Z");
    assertThat(parsed.path("records").get(0).path("version").asLong()).isEqualTo(3);
    assertThat(parsed.path("records").get(1).has("version")).isFalse();
    assertThat(parsed.path("records").get(1).path("id").asText()).isEqualTo("n\u001f");
  }

  @Test
  void aMissingActorIsNullAndNoRecordsIsAnEmptyList() throws Exception {
    AuditEntry e = new AuditEntry("ref", 1, 1, Instant.EPOCH, null, "ns", "expired", List.of());
    String text = closed(e);
    JsonNode parsed = Json.MAPPER.readTree(text);
    assertThat(parsed.path("actor").isNull()).isTrue();
    assertThat(parsed.path("records").size()).isZero();
    assertThat(Json.write(parsed)).isEqualTo(text);
  }

  @Test
  void times_formatAsTimestampsDo_whenTheyShareASecondAndWhenTheyDoNot() {
    AuditEntry.Times times = new AuditEntry.Times();
    Instant base = Instant.parse("2026-11-26T23:59:59Z");
    List<Instant> all =
        List.of(
            base,
            base.plusNanos(123_456_000),
            base.plusNanos(123_456_789),
            base.plusNanos(999_999_999),
            base.plusSeconds(1), // the next day
            base.plusSeconds(1).plusNanos(1_000),
            Instant.EPOCH,
            Instant.parse("+12026-01-01T00:00:00.5Z"), // a year the short form does not cover
            base.plusNanos(7));
    for (Instant t : all) {
      assertThat(times.append(new StringBuilder(), t).toString())
          .as("%s", t)
          .isEqualTo(dev.loci.internal.Timestamps.format(t));
    }
  }
}
