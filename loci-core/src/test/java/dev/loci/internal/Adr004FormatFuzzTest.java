package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.loci.FuzzBudget;
import dev.loci.Namespace;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Coverage-guided fuzzing of the Go import format (ADR-004 JSONL lines). Invariants: {@code parse}
 * never throws; it returns either an operation or an error text, never both and never neither; the
 * work stays within a generous linear budget.
 */
class Adr004FormatFuzzTest {
  private static final Namespace NS = Namespace.of("fuzz");
  private static final Instant IMPORT_TIME = Instant.parse("2026-11-24T00:00:00Z");

  @FuzzTest(maxDuration = "10s")
  void parse_fuzzedLine_returnsOpOrError(FuzzedDataProvider data) {
    long lineNo = data.consumeLong(1, Long.MAX_VALUE);
    String line = data.consumeRemainingAsString();
    long start = FuzzBudget.start();
    Adr004Format.Parsed parsed = Adr004Format.parse(lineNo, line, NS, IMPORT_TIME);
    FuzzBudget.assertLinear(start, line.getBytes(StandardCharsets.UTF_8).length);
    assertThat(parsed.op() == null)
        .as("exactly one of op and error: %s", parsed)
        .isNotEqualTo(parsed.error() == null);
    if (parsed.error() != null) {
      assertThat(parsed.error()).isNotBlank();
    }
  }
}
