package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Namespace;
import dev.loci.Trace;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * The hand-written trace reader against Jackson's path: it reads the records and events the layer
 * writes, and whatever text it reads, it reads as Jackson's path does. Seeded random traces; the
 * seed is in the failure message.
 */
class TraceRecordReaderTest {
  private static final Namespace NS = Namespace.of("acme.alice");
  private static final Instant AT = Instant.parse("2026-11-22T10:00:00.123456Z");

  @Test
  void read_eventOfANewTrace_sharesTheBatchTimeAndEqualsJacksonsTrace() {
    Trace t =
        new Trace(
            "u1", NS, "{\"a\":\"x\\ny\"}", Optional.of("u0"), AT, AT, false, 3, List.of("b", "c"));
    String event = TraceRecords.appendJson(new StringBuilder(), t, false).toString();

    Trace fast = TraceRecordReader.read(event, NS, Map.of(), Instant.parse(AT.toString()));

    assertThat(fast)
        .isEqualTo(t)
        .isEqualTo(TraceRecords.parse(event, Map.of(), Optional.of(NS), false));
    assertThat(fast.updatedAt()).isSameAs(fast.createdAt());
  }

  @RepeatedTest(20)
  void read_randomRecords_readsOnlyWhatJacksonReadsAndAsItDoes() {
    long seed = new Random().nextLong();
    Random r = new Random(seed);
    int read = 0;
    int written = 0;
    for (int n = 0; n < 300; n++) {
      boolean snapshot = r.nextBoolean();
      String text = TraceRecords.appendJson(new StringBuilder(), trace(r), snapshot).toString();
      if (r.nextInt(3) == 0) {
        text = mutate(r, text);
      } else {
        written++;
      }
      Trace fast = TraceRecordReader.read(text, snapshot ? null : NS, new HashMap<>(), AT);
      if (fast != null) {
        read++;
        Trace slow;
        try {
          slow =
              TraceRecords.parse(
                  text, new HashMap<>(), snapshot ? Optional.empty() : Optional.of(NS), false);
        } catch (IllegalArgumentException e) {
          slow = null;
        }
        assertThat(fast).as("seed %d, text %s", seed, text).isEqualTo(slow);
      }
    }
    assertThat(read).as("seed %d", seed).isGreaterThanOrEqualTo(written);
  }

  private static final String[] CONTENT = {
    "{\"note\":\"x\"}",
    "\"caf\u00e9 \ud83d\ude00\"",
    "[1,2]",
    "\"a\\\"b\\\\c\"",
    "\"\u0001\\n\\t\"",
    "null",
    "\"\ud800\"",
    ""
  };

  private static Trace trace(Random r) {
    Instant created = AT.plusNanos(1000L * r.nextInt(3));
    Instant updated = r.nextBoolean() ? created : created.plusSeconds(r.nextInt(100));
    return new Trace(
        "u" + r.nextInt(1000),
        r.nextBoolean() ? NS : Namespace.of("acme.t" + r.nextInt(3)),
        CONTENT[r.nextInt(CONTENT.length)],
        r.nextBoolean() ? Optional.of("p\"" + r.nextInt(9)) : Optional.empty(),
        created,
        updated,
        r.nextBoolean(),
        1 + r.nextInt(r.nextBoolean() ? 3 : 2_000_000_000),
        r.nextBoolean() ? List.of() : List.of("bench", "t\u00e9" + r.nextInt(3)));
  }

  private static String mutate(Random r, String s) {
    char[] c = s.toCharArray();
    char[] chars = {'"', '\\', '{', '}', '[', ']', ',', ':', ' ', '0', '9', 'u', '\u0001'};
    for (int k = 1 + r.nextInt(2); k > 0; k--) {
      c[r.nextInt(c.length)] = chars[r.nextInt(chars.length)];
    }
    return new String(c);
  }
}
