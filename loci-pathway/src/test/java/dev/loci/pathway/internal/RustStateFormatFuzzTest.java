package dev.loci.pathway.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.loci.FuzzBudget;
import dev.loci.InvalidRequestException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Coverage-guided fuzzing of the Rust import format (pathway {@code state.json}). Invariants:
 * {@code read} returns contents or throws {@link InvalidRequestException} naming a field with a
 * message, nothing else; every trace read counts toward the contents; the work stays within a
 * generous linear budget ({@link FuzzBudget}). See docs/fuzzing.md.
 */
class RustStateFormatFuzzTest {
  @Test
  void read_bytesTheParserTakesForUtf32_isInvalidRequestNotCharConversion() {
    byte[] bytes = "{\0\0\0\0\0\0\0\0\"pathways\":{}}".getBytes(StandardCharsets.ISO_8859_1);

    assertThatThrownBy(() -> RustStateFormat.read(new ByteArrayInputStream(bytes)))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("UTF-8")
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("state");
  }

  @FuzzTest(maxDuration = "10s")
  void read_fuzzedStateFile_returnsContentsOrInvalidRequest(byte[] bytes) throws IOException {
    long start = FuzzBudget.start();
    try {
      RustStateFormat.Contents contents = RustStateFormat.read(new ByteArrayInputStream(bytes));
      assertThat(contents.legacyAssigned()).isBetween(0, contents.traces().size());
    } catch (InvalidRequestException e) {
      assertThat(e.field()).isNotBlank();
      assertThat(e.getMessage()).isNotBlank();
    }
    FuzzBudget.assertLinear(start, bytes.length);
  }
}
