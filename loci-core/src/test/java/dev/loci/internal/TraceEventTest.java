package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Namespace;
import dev.loci.Trace;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A new trace's event is concatenated from parts its draft encoded; it must be exactly the text the
 * general encoder writes, which replay and snapshots read.
 */
class TraceEventTest {
  private static final Namespace NS = Namespace.of("t.events");
  private static final Instant AT = Instant.parse("2026-11-26T16:30:00.123456Z");

  private static void sameAsGeneralEncoding(Trace t, TraceLayer.Draft draft) {
    assertThat(TraceRecords.event(TraceLayer.ADDED, t, draft).json())
        .isEqualTo(TraceRecords.appendJson(new StringBuilder(), t, false).toString());
  }

  private static Trace trace(String uid, Optional<String> predecessor, TraceLayer.Draft d) {
    return new Trace(uid, NS, d.content(), predecessor, AT, AT, false, 1, d.tags());
  }

  @Test
  void newTraces_encodeAsTheGeneralEncoderDoes() {
    TraceLayer.Draft plain =
        TraceLayer.Draft.of("{\"note\": \"a \\\"b\\\"\", \"i\": 1}", List.of("x"));
    TraceLayer.Draft unicode =
        TraceLayer.Draft.of("\"naïve \\u0001 日本 \\ud83d\\ude00\"", List.of("é", "t\"ag", "b"));
    TraceLayer.Draft noTags = TraceLayer.Draft.of("[1,2]", List.of());
    for (TraceLayer.Draft d : List.of(plain, unicode, noTags)) {
      sameAsGeneralEncoding(trace("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", Optional.empty(), d), d);
      sameAsGeneralEncoding(trace("My.uid:1_a-B", Optional.of("Prev.uid:0"), d), d);
      // not from checkUid, but the encoder must still escape them: the general path
      sameAsGeneralEncoding(trace("a\"b\\c", Optional.of("p\"q"), d), d);
      sameAsGeneralEncoding(trace("ok", Optional.of("p\u00e9"), d), d);
    }
  }

  @Test
  void tracesThatAreNotFresh_takeTheGeneralEncoder() {
    TraceLayer.Draft d = TraceLayer.Draft.of("{\"a\":1}", List.of("x"));
    Trace fresh = trace("u1", Optional.empty(), d);
    sameAsGeneralEncoding(fresh.asRetired(), d);
    sameAsGeneralEncoding(fresh.replayed(), d);
    sameAsGeneralEncoding(fresh.withContent(d.content(), AT.plusSeconds(1)), d);
  }
}
