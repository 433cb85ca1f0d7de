package dev.loci.recall.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.recall.EvidenceRef;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;

/**
 * The hand-written reader of recall snapshot records against Jackson databind: it reads the common
 * records capture writes, and whatever it reads, it reads as databind does. Seeded random records,
 * some mutated; the seed is in the failure message.
 */
class RecallRecordReaderTest {
  private static final Instant AT = Instant.parse("2026-11-22T10:00:00.123456Z");

  @RepeatedTest(20)
  void read_randomRecords_readsOnlyWhatDatabindReadsAndAsItDoes() throws Exception {
    long seed = new Random().nextLong();
    Random r = new Random(seed);
    // the node at ordinal k < 100 is IDS[k] in one namespace, none in the other, so that an edge's
    // ordinals sometimes name its own nodes, sometimes others, sometimes none
    RecallRecordReader reader =
        new RecallRecordReader((ns, k) -> ns.equals("acme.a") && k < IDS.length ? IDS[k] : null);
    int read = 0;
    int common = 0;
    int shared = 0;
    for (int n = 0; n < 300; n++) {
      boolean isNode = r.nextBoolean();
      boolean plain = r.nextInt(4) > 0;
      boolean ends = !isNode && r.nextBoolean();
      String ns = r.nextBoolean() ? "acme.a" : "bench.recall";
      MemoryEdge edge = isNode ? null : edge(r, plain);
      RecallSnapshots.Record record =
          r.nextInt(10) == 0
              ? new RecallSnapshots.Record(
                  ns, null, null, null, null, null, null, null, r.nextInt(), r.nextInt(1000))
              : new RecallSnapshots.Record(
                  ns,
                  1 + r.nextInt(r.nextBoolean() ? 3 : Integer.MAX_VALUE),
                  r.nextBoolean() ? AT : AT.plusSeconds(r.nextInt(1000)),
                  r.nextInt(5) == 0,
                  isNode ? node(r, plain) : null,
                  edge,
                  ends ? ordinal(r, edge.from()) : null,
                  ends ? ordinal(r, edge.to()) : null,
                  null,
                  null);
      byte[] text = RecallJson.MAPPER.writeValueAsBytes(record);
      if (r.nextInt(3) == 0) {
        mutate(r, text);
      } else if (plain) {
        common++;
      }
      RecallSnapshots.Record fast = reader.read(text, 0, text.length);
      if (fast != null) {
        read++;
        RecallSnapshots.Record slow;
        try {
          slow = RecallJson.MAPPER.readValue(text, RecallSnapshots.Record.class);
        } catch (Exception e) {
          slow = null;
        }
        assertThat(fast).as("seed %d, record %s", seed, new String(text, UTF_8)).isEqualTo(slow);
        if (fast.edge() != null && fast.fromNode() != null && fast.ns().equals("acme.a")) {
          shared += sharedEnd(seed, fast.edge().from(), fast.fromNode());
          shared += sharedEnd(seed, fast.edge().to(), fast.toNode());
        }
      }
    }
    assertThat(read).as("seed %d", seed).isGreaterThanOrEqualTo(common);
    assertThat(shared).as("seed %d", seed).isPositive();
  }

  private static final String[] IDS = new String[100];

  static {
    for (int k = 0; k < IDS.length; k++) {
      IDS[k] = (k % 2 == 0 ? "n" : "m") + k;
    }
  }

  /**
   * An edge's end is the string the reader was given for its ordinal when they are equal; 1 if they
   * are.
   */
  private static int sharedEnd(long seed, String end, int ordinal) {
    if (ordinal < IDS.length && end.equals(IDS[ordinal])) {
      assertThat(end).as("seed %d", seed).isSameAs(IDS[ordinal]);
      return 1;
    }
    return 0;
  }

  /** The number in {@code id} (which IDS holds there when it is even), or a random ordinal. */
  private static int ordinal(Random r, String id) {
    return switch (r.nextInt(3)) {
      case 0 -> Integer.parseInt(id.substring(1));
      case 1 -> r.nextInt(100);
      default -> r.nextInt(Integer.MAX_VALUE);
    };
  }

  @RepeatedTest(10)
  void nodePutAndEdgePut_randomEvents_readOnlyWhatDatabindReadsAndAsItDoes() {
    long seed = new Random().nextLong();
    Random r = new Random(seed);
    int read = 0;
    int common = 0;
    for (int n = 0; n < 300; n++) {
      boolean isNode = r.nextBoolean();
      boolean plain = r.nextInt(4) > 0;
      int version = 1 + r.nextInt(5);
      String json =
          isNode
              ? RecallEvents.nodePut(node(r, plain), version).json()
              : RecallEvents.edgePut(edge(r, plain), version).json();
      byte[] bytes = json.getBytes(UTF_8);
      if (r.nextInt(3) == 0) {
        mutate(r, bytes);
        json = new String(bytes, UTF_8);
      } else if (plain) {
        common++;
      }
      Object fast = isNode ? RecallRecordReader.nodePut(json) : RecallRecordReader.edgePut(json);
      if (fast != null) {
        read++;
        Object slow;
        try {
          if (isNode) {
            RecallEvents.NodePutData d =
                RecallJson.MAPPER.readValue(json, RecallEvents.NodePutData.class);
            slow = new RecallEvents.NodePut(d.node(), d.version());
          } else {
            RecallEvents.EdgePutData d =
                RecallJson.MAPPER.readValue(json, RecallEvents.EdgePutData.class);
            slow = new RecallEvents.EdgePut(d.edge(), d.version());
          }
        } catch (Exception e) {
          slow = null;
        }
        assertThat(fast).as("seed %d, event %s", seed, json).isEqualTo(slow);
      }
    }
    assertThat(read).as("seed %d", seed).isGreaterThanOrEqualTo(common);
  }

  private static final String[] CONTENT = {
    "refund policy", "caf\u00e9", "a \"quoted\" word", "line\nbreak", "x", "n0 n1 n2 \u007f"
  };

  private static MemoryNode node(Random r, boolean plain) {
    MemoryNode.Builder b =
        MemoryNode.builder(
                "n" + r.nextInt(100),
                r.nextBoolean() ? "unit" : "doc",
                CONTENT[r.nextInt(plain ? 1 : CONTENT.length)])
            .importance(r.nextDouble())
            .risk(r.nextBoolean() ? 0 : r.nextDouble() / 3)
            .confidence(r.nextBoolean() ? 1 : 1e-7 * r.nextInt(5))
            .usageCount(r.nextInt(3));
    if (r.nextBoolean()) {
      b.attribute("pack", "p" + r.nextInt(3)).attribute("a", "b");
    }
    if (!plain && r.nextBoolean()) {
      b.subjectIds(List.of("s1"));
    }
    return b.build();
  }

  private static MemoryEdge edge(Random r, boolean plain) {
    MemoryEdge e =
        new MemoryEdge(
            "n" + r.nextInt(100),
            "m" + r.nextInt(100),
            r.nextBoolean() ? "next_unit" : "references",
            r.nextInt(11) / 10.0,
            r.nextBoolean() ? 1.0 : r.nextDouble(),
            r.nextBoolean(),
            Optional.empty());
    return plain || r.nextBoolean() ? e : e.withSource(EvidenceRef.of("doc-1"));
  }

  /**
   * Weights are read without {@code Double.parseDouble} when their digits fit a double exactly
   * (Clinger's fast path) and with Jackson's fast parser otherwise: every form must give the bits
   * {@code Double.parseDouble} gives.
   */
  @RepeatedTest(5)
  void numbers_everyForm_readAsDoubleParseDoubleReadsThem() {
    long seed = new Random().nextLong();
    Random r = new Random(seed);
    for (int n = 0; n < 5_000; n++) {
      String text =
          switch (r.nextInt(6)) {
            case 0 -> Double.toString(r.nextDouble());
            case 1 -> "0." + digits(r, 1 + r.nextInt(30));
            case 2 -> r.nextBoolean() ? "1" : r.nextBoolean() ? "0" : "1.0";
            case 3 -> "0." + "0".repeat(r.nextInt(25)) + digits(r, 1 + r.nextInt(20));
            case 4 -> "1" + digits(r, r.nextInt(9)) + "e-" + (9 + r.nextInt(300));
            default -> "-0." + "0".repeat(r.nextInt(3)) + "0";
          };
      String json =
          "{\"version\":1,\"node\":{\"id\":\"n\",\"type\":\"unit\",\"content\":\"c\","
              + "\"attributes\":{},\"importance\":"
              + text
              + ",\"risk\":0.0,\"novelty\":0.0,\"confidence\":1.0,\"usage_count\":0,"
              + "\"decay_factor\":1.0}}";
      double expected = Double.parseDouble(text);
      RecallEvents.NodePut p = RecallRecordReader.nodePut(json);
      if (expected > 1) {
        assertThat(p).as("seed %d, %s", seed, text).isNull(); // out of range: refused
        continue;
      }
      assertThat(p).as("seed %d, %s", seed, text).isNotNull();
      assertThat(Double.doubleToRawLongBits(p.node().importance()))
          .as("seed %d, %s", seed, text)
          .isEqualTo(Double.doubleToRawLongBits(expected));
    }
  }

  private static String digits(Random r, int n) {
    StringBuilder out = new StringBuilder(n);
    for (int k = 0; k < n; k++) {
      out.append((char) ('0' + r.nextInt(10)));
    }
    return out.toString();
  }

  private static void mutate(Random r, byte[] b) {
    byte[] bytes = {'"', '\\', '{', '}', ',', ':', ' ', '0', '9', '.', 'e', '-', (byte) 0xC3, 1};
    for (int k = 1 + r.nextInt(2); k > 0; k--) {
      b[r.nextInt(b.length)] = bytes[r.nextInt(bytes.length)];
    }
  }
}
