package dev.loci;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random traces (unicode content and tags, imported timestamps with nanoseconds and before 1970)
 * survive journal replay, snapshot restore and compaction unchanged.
 */
class RoundTripTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Namespace NS = CrashFixture.ALPHA;

  static LongStream seeds() {
    return CrashFixture.seeds(6);
  }

  /**
   * A random string of code points from ranges that need escaping, multi-byte UTF-8, or neither.
   */
  static String text(Random r, int max, boolean controls) {
    int n = r.nextInt(max + 1);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      int kind = r.nextInt(10);
      int cp =
          switch (kind) {
            case 0 -> controls ? r.nextInt(0x20) : 'c';
            case 1 -> "\"\\/'{}[]:,\u007f".charAt(r.nextInt(11));
            case 2 -> 0x80 + r.nextInt(0x780); // two bytes
            case 3 -> 0x800 + r.nextInt(0xD000 - 0x800); // three bytes, below the surrogates
            case 4 -> 0xE000 + r.nextInt(0x10000 - 0xE000); // three bytes, above them
            case 5 -> 0x10000 + r.nextInt(0x10FFFF - 0x10000); // four bytes: a surrogate pair
            case 6 -> "\u2028\u2029\uFEFF\uFFFF".charAt(r.nextInt(4));
            default -> 0x20 + r.nextInt(0x5f);
          };
      sb.appendCodePoint(cp);
    }
    return sb.toString();
  }

  private static String content(Random r) throws Exception {
    return switch (r.nextInt(4)) {
      case 0 -> JSON.writeValueAsString(text(r, 30, true));
      case 1 -> JSON.writeValueAsString(Map.of("s", text(r, 30, true), "n", r.nextLong()));
      case 2 -> "{\"raw\":\"\\u00e9\\/\\uD83D\\uDE00\\n\",\"x\":1.50e+3,\"y\":-0}";
      default -> "[" + JSON.writeValueAsString(text(r, 5, true)) + ",null,true]";
    };
  }

  private static List<String> tags(Random r) {
    List<String> tags = new ArrayList<>();
    for (int i = r.nextInt(3); i > 0; i--) {
      StringBuilder t = new StringBuilder("t");
      text(r, 12, false)
          .codePoints()
          .filter(c -> !Character.isISOControl(c))
          .forEach(t::appendCodePoint);
      tags.add(t.toString());
    }
    return tags;
  }

  /**
   * Nanoseconds since the epoch: before and after 1970, with and without sub-microsecond digits.
   */
  private static long nanos(Random r) {
    long n = (r.nextLong() % 4_000_000_000_000_000_000L);
    return switch (r.nextInt(3)) {
      case 0 -> n - n % 1_000; // whole microseconds
      case 1 -> n - n % 1_000_000_000L; // whole seconds
      default -> n;
    };
  }

  private static String importLine(Random r, String uid, String predecessor) throws Exception {
    ObjectNode trace = JSON.createObjectNode();
    trace.put("uid", uid);
    trace.putRawValue("content", new RawValue(content(r)));
    if (predecessor != null) {
      trace.put("predecessor_uid", predecessor);
    }
    long created = nanos(r);
    trace.put("created_at_ns", created);
    trace.put("updated_at_ns", r.nextBoolean() ? created : nanos(r));
    trace.put("retired", r.nextInt(4) == 0);
    trace.put("replay_count", 1 + r.nextInt(5));
    ArrayNode tags = trace.putArray("tags");
    tags(r).forEach(tags::add);
    ObjectNode line = JSON.createObjectNode();
    line.put("op", predecessor == null ? "add" : "revise");
    line.set("trace", trace);
    return JSON.writeValueAsString(line);
  }

  private static String updateLine(Random r, String uid) throws Exception {
    ObjectNode line = JSON.createObjectNode();
    line.put("op", "update");
    line.put("uid", uid);
    line.putRawValue("content", new RawValue(content(r)));
    line.put("updated_at_ns", nanos(r));
    return JSON.writeValueAsString(line);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void reopen_randomTraces_journalReplayAndSnapshotRestoreGiveTheSameState(
      long seed, @TempDir Path dir) {
    CrashFixture.withSeed(
        seed,
        () -> {
          Random r = new Random(seed);
          Map<String, Trace> state;
          try (Loci loci = CrashFixture.open(dir)) {
            Traces traces = loci.traces();
            List<String> uids = new ArrayList<>();
            for (int i = 0; i < 120; i++) {
              int pick = r.nextInt(7);
              if (pick == 0 || uids.isEmpty()) {
                uids.add(traces.add(NS, content(r), tags(r)).uid());
              } else if (pick == 1) {
                StringBuilder lines = new StringBuilder();
                for (int k = r.nextInt(4); k >= 0; k--) {
                  String uid = "imp-" + i + "-" + k;
                  boolean revise = r.nextBoolean();
                  lines
                      .append(importLine(r, uid, revise ? uids.get(r.nextInt(uids.size())) : null))
                      .append('\n');
                  uids.add(uid);
                }
                lines.append(updateLine(r, uids.get(r.nextInt(uids.size())))).append('\n');
                lines
                    .append("{\"op\":\"replay\",\"uid\":\"")
                    .append(uids.get(r.nextInt(uids.size())))
                    .append("\"}\n");
                ImportReport report =
                    traces.importAdr004(NS, new BufferedReader(new StringReader(lines.toString())));
                assertThat(report.skipped()).as("import of %s", lines).isEmpty();
              } else if (pick == 2) {
                traces.update(NS, uids.get(r.nextInt(uids.size())), content(r));
              } else if (pick == 3) {
                uids.add(
                    traces.revise(NS, uids.get(r.nextInt(uids.size())), content(r), tags(r)).uid());
              } else if (pick == 4) {
                traces.retire(NS, uids.get(r.nextInt(uids.size())));
              } else {
                traces.addIdempotent(NS, "idem-" + r.nextInt(5), content(r), tags(r));
              }
            }
            state = CrashFixture.state(loci);
            assertThat(state).isNotEmpty();
          }
          try (Loci loci = CrashFixture.open(dir)) {
            assertThat(loci.openDamage()).isEmpty();
            assertThat(CrashFixture.state(loci)).as("after journal replay").isEqualTo(state);
            loci.snapshot();
          }
          try (Loci loci = CrashFixture.open(dir)) {
            assertThat(loci.openDamage()).isEmpty();
            assertThat(CrashFixture.state(loci)).as("after snapshot restore").isEqualTo(state);
            loci.compact();
          }
          try (Loci loci = CrashFixture.open(dir)) {
            assertThat(CrashFixture.state(loci)).as("after compaction").isEqualTo(state);
          }
          assertThat(Loci.verify(dir).damage()).isEmpty();
        });
  }

  @Test
  void reopen_loneSurrogateInContentAndTag_keptExactly(@TempDir Path dir) {
    String content = "\"a\uD800b\"";
    List<String> tags = List.of("t\uDC00");
    Trace added;
    try (Loci loci = CrashFixture.open(dir)) {
      added = loci.traces().add(NS, content, tags);
      assertThat(added.content()).isEqualTo(content);
      assertThat(added.tags()).isEqualTo(tags);
    }
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(loci.traces().get(NS, added.uid())).as("after journal replay").isEqualTo(added);
      loci.snapshot();
    }
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(loci.traces().get(NS, added.uid())).as("after snapshot restore").isEqualTo(added);
    }
  }
}
