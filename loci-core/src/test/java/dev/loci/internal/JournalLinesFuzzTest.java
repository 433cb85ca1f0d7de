package dev.loci.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.loci.FuzzBudget;
import dev.loci.spi.JournalEntry;
import java.io.ByteArrayOutputStream;
import java.util.zip.CRC32C;

/**
 * Coverage-guided fuzzing of the journal line decoder. The fuzzer's bytes become the checksummed
 * prefix of a line and the test appends a matching {@code crc32c} suffix, so the input reaches the
 * JSON parser instead of stopping at the checksum. Invariants: only {@link
 * JournalLines.BadLineException} (with a message) escapes {@code decode}, {@code salvage} never
 * throws, an accepted line keeps the sequence number its prefix claims, and the work stays within a
 * generous linear budget.
 *
 * <p>Runs its seed corpus in every build; {@code JAZZER_FUZZ=1} fuzzes (see docs/fuzzing.md).
 */
class JournalLinesFuzzTest {

  @FuzzTest(maxDuration = "10s")
  void decode_checksummedFuzzedPrefix_acceptsOrRejectsWithBadLine(FuzzedDataProvider data) {
    boolean keepChecksum = data.consumeBoolean();
    byte[] prefix = data.consumeRemainingAsBytes();
    byte[] line = keepChecksum ? withChecksum(prefix) : prefix;

    long start = FuzzBudget.start();
    try {
      JournalEntry entry = JournalLines.decode(line, 0, line.length, JournalLines.namespaceCache());
      assertThat(JournalLines.checksumMatches(line, 0, line.length)).isTrue();
      JournalLines.peekSeq(line, 0, line.length)
          .ifPresent(seq -> assertThat(entry.seq()).isEqualTo(seq));
    } catch (JournalLines.BadLineException e) {
      assertThat(e.getMessage()).isNotBlank();
    }
    JournalLines.Salvage salvage =
        JournalLines.salvage(line, 0, line.length, JournalLines.namespaceCache());
    assertThat(salvage.entries()).isNotNull();
    FuzzBudget.assertLinear(start, line.length);
  }

  /** Appends {@code ,"crc32c":"xxxxxxxx"}} over {@code prefix}, as the journal writer does. */
  static byte[] withChecksum(byte[] prefix) {
    CRC32C crc = new CRC32C();
    crc.update(prefix, 0, prefix.length);
    ByteArrayOutputStream out = new ByteArrayOutputStream(prefix.length + 24);
    out.writeBytes(prefix);
    out.writeBytes(String.format(",\"crc32c\":\"%08x\"}", crc.getValue()).getBytes(UTF_8));
    return out.toByteArray();
  }
}
