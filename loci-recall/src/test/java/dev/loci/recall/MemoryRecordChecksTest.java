package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.InvalidRequestException;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

/**
 * The record checks ingest runs on every node and edge are loops, not regexes or streams: they must
 * accept and refuse exactly what the documented patterns do.
 */
class MemoryRecordChecksTest {
  private static final String ALPHABET = "az09_AZ-. \u0001\u007f\u00e9";

  @RepeatedTest(20)
  void isType_randomStrings_agreesWithTypePattern(RepetitionInfo info) {
    long seed = 0x7e57_0000L + info.getCurrentRepetition();
    Random random = new Random(seed);
    for (int i = 0; i < 2_000; i++) {
      StringBuilder b = new StringBuilder();
      int length = random.nextInt(4) == 0 ? 60 + random.nextInt(8) : random.nextInt(6);
      for (int j = 0; j < length; j++) {
        b.append(
            random.nextInt(3) == 0
                ? ALPHABET.charAt(random.nextInt(ALPHABET.length()))
                : (char) ('a' + random.nextInt(3)));
      }
      String t = b.toString();
      assertThat(MemoryNode.isType(t))
          .as("seed %d, type '%s'", seed, t)
          .isEqualTo(MemoryNode.TYPE.matcher(t).matches());
    }
  }

  @Test
  void edge_typeOrIdOutOfShape_isRefusedNamingTheField() {
    assertThat(MemoryNode.isType("a".repeat(63))).isTrue();
    assertThat(MemoryNode.isType("a".repeat(64))).isFalse();
    assertThatThrownBy(() -> MemoryEdge.of("a", "b", "Same", 1))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("edge_type"));
    assertThatThrownBy(() -> MemoryEdge.of("a\u0007", "b", "same", 1))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("from"));
    assertThatThrownBy(() -> MemoryEdge.of("a", "b\u0085", "same", 1))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("to"));
  }
}
