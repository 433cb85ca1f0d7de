package dev.loci.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocomoDataTest {
  @TempDir Path dir;

  static Path quirks() {
    try {
      return Path.of(LocomoDataTest.class.getResource("locomo-quirks.json").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void read_bundledDevelopmentSet_everyQuestionUsableWithNothingSkipped() throws Exception {
    assertBundledSetReadWhole("loci-dev-conversations.json", 6, 240, 361, 5);
  }

  @Test
  void read_bundledLongDevelopmentSet_everyEvidenceIdNamesATurnAndNothingIsSkipped()
      throws Exception {
    assertBundledSetReadWhole("loci-dev-long.json", 3, 230, 701, 13);
  }

  @Test
  void read_bundledChatDevelopmentSet_everyEvidenceIdNamesATurnAndNothingIsSkipped()
      throws Exception {
    assertBundledSetReadWhole("loci-dev-chat.json", 4, 301, 2159, 15);
  }

  /**
   * A bundled development set is read with nothing skipped (an evidence id naming no turn, or a
   * malformed one, would be), with its counts, and every conversation reaches {@code session}.
   */
  private static void assertBundledSetReadWhole(
      String file, int conversations, int questions, int turns, int session) throws Exception {
    Path devset = Path.of(LocomoDataTest.class.getResource("/devset/" + file).toURI());

    LocomoData data = LocomoData.read(devset);

    assertThat(data.conversations()).hasSize(conversations);
    assertThat(data.conversations().stream().mapToInt(c -> c.questions().size()).sum())
        .isEqualTo(questions);
    assertThat(data.conversations().stream().mapToInt(c -> c.turns().size()).sum())
        .isEqualTo(turns);
    assertThat(data.skipped()).isEmpty();
    assertThat(data.conversations())
        .allSatisfy(
            c -> assertThat(c.turns()).extracting(LocomoData.Turn::session).contains(session));
  }

  @Test
  void read_everyQuirk_keepsWhatIsUsableAndReportsTheRest() {
    LocomoData data = LocomoData.read(quirks());

    assertThat(data.conversations()).hasSize(1);
    LocomoData.Conversation c = data.conversations().get(0);
    assertThat(c.sampleId()).isEqualTo("conv-a");
    assertThat(c.turns())
        .extracting(LocomoData.Turn::diaId)
        .containsExactly("D1:1", "D1:2", "D1:3", "D2:1", "D2:2");
    assertThat(c.turns().get(3).session()).isEqualTo(2);
    assertThat(c.questions())
        .extracting(
            LocomoData.Question::id, LocomoData.Question::category, LocomoData.Question::evidence)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("1-1", 4, List.of("D1:1")),
            // "D1:1; D1:3" is split
            org.assertj.core.groups.Tuple.tuple("1-2", 1, List.of("D1:1", "D1:3")),
            // "D2:01" is read as D2:1
            org.assertj.core.groups.Tuple.tuple("1-3", 2, List.of("D2:1")),
            // a space-joined list is split; D9:9 names no turn and is dropped
            org.assertj.core.groups.Tuple.tuple("1-4", 3, List.of("D1:3", "D2:1")),
            // adversarial_answer instead of answer is fine; "D" is dropped
            org.assertj.core.groups.Tuple.tuple("1-5", 5, List.of("D1:1")));
    assertThat(data.skipCounts("question"))
        .isEqualTo(Map.of("empty evidence", 1, "no usable evidence id", 1));
    assertThat(data.skipCounts("evidence"))
        .isEqualTo(Map.of("malformed evidence id", 2, "no such turn", 1));
    assertThat(data.skipCounts("session")).isEqualTo(Map.of("session date with no session", 1));
    assertThat(data.skipCounts("repaired"))
        .isEqualTo(Map.of("several ids in one entry, split", 2, "read as D2:1", 1));
    assertThat(data.skipped())
        .contains(
            new LocomoData.Skip(
                "evidence", "conversation 1 question 7 'D:1:2'", "malformed evidence id"),
            new LocomoData.Skip(
                "session", "conversation 1 session_3", "session date with no session"));
  }

  @Test
  void read_notAnArray_isRefusedWithTheFileNamed() throws IOException {
    Path file = Files.writeString(dir.resolve("one.json"), "{\"sample_id\": \"x\"}");

    assertThatThrownBy(() -> LocomoData.read(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("one.json")
        .hasMessageContaining("expected an array");
  }

  @Test
  void read_notJson_isRefused() throws IOException {
    Path file = Files.writeString(dir.resolve("bad.json"), "[{");

    assertThatThrownBy(() -> LocomoData.read(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not JSON");
  }

  @Test
  void sessionOf_turnId_isItsSession() {
    assertThat(LocomoData.sessionOf("D12:3")).isEqualTo("D12");
  }
}
