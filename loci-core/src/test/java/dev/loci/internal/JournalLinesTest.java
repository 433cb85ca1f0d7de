package dev.loci.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Namespace;
import dev.loci.spi.Batch;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import java.time.Instant;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** The journal line as the write path encodes it, straight into a {@link LineBuffer}. */
class JournalLinesTest {
  private static final Namespace NS = Namespace.of("acme.alice");
  private static final Instant TS = Instant.parse("2026-11-22T10:00:00.123456Z");

  @Test
  void encode_nonAsciiDataAndEscapedActor_isTheDesignFormatByteForByte() throws Exception {
    Batch batch =
        new Batch(
            TS,
            NS,
            "cli:\"bob\"\n",
            List.of(
                Event.ofJson("trace.added", "{\"note\":\"caf\u00e9 \u2603 \ud83d\ude00\"}"),
                Event.ofJson("trace.retired", "{\"uid\":\"u\"}")));

    byte[] line = JournalLines.encode(42, batch);

    String head =
        "{\"seq\":42,\"ts\":\"2026-11-22T10:00:00.123456Z\",\"ns\":\"acme.alice\","
            + "\"actor\":\"cli:\\\"bob\\\"\\n\",\"events\":["
            + "{\"type\":\"trace.added\",\"data\":{\"note\":\"caf\u00e9 \u2603 \ud83d\ude00\"}},"
            + "{\"type\":\"trace.retired\",\"data\":{\"uid\":\"u\"}}]";
    CRC32C crc = new CRC32C();
    crc.update(head.getBytes(UTF_8));
    String expected = head + String.format(",\"crc32c\":\"%08x\"}\n", crc.getValue());
    assertThat(new String(line, UTF_8)).isEqualTo(expected);
    JournalEntry back =
        JournalLines.decode(line, 0, line.length - 1, JournalLines.namespaceCache());
    assertThat(back.events()).isEqualTo(batch.events());
    assertThat(back.actor()).isEqualTo(batch.actor());
  }

  @Test
  void encode_severalLinesIntoOneBuffer_eachLineChecksAndKeepsItsSequenceNumber() throws Exception {
    LineBuffer out = new LineBuffer(16); // grows on the way
    long[] seqs = {1, 9, 10, 99, 100, 123_456_789_012L, Long.MAX_VALUE};
    Batch batch = new Batch(TS, NS, "a", List.of(Event.ofJson("trace.added", "{\"x\":1}")));
    int[] starts = new int[seqs.length + 1];
    for (int i = 0; i < seqs.length; i++) {
      starts[i] = out.size();
      JournalLines.encode(out, seqs[i], batch);
    }
    starts[seqs.length] = out.size();

    byte[] all = out.copy(0);
    for (int i = 0; i < seqs.length; i++) {
      int len = starts[i + 1] - starts[i] - 1; // without the newline
      assertThat(all[starts[i + 1] - 1]).isEqualTo((byte) '\n');
      assertThat(JournalLines.checksumMatches(all, starts[i], len)).isTrue();
      JournalEntry e = JournalLines.decode(all, starts[i], len, JournalLines.namespaceCache());
      assertThat(e.seq()).isEqualTo(seqs[i]);
      assertThat(e.ts()).isEqualTo(TS);
    }
  }
}
