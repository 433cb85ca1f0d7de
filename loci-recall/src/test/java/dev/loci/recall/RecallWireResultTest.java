package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.InvalidRequestException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link RecallWire#readResult} reads what the server's recall route answers: the result as {@link
 * RecallWire#write} wrote it, with or without the members a recall through the palace adds.
 */
class RecallWireResultTest {
  private static RecallResult result() {
    MemoryNode node =
        new MemoryNode(
            "terms:2",
            "clause",
            "the supplier pays a penalty",
            Map.of(),
            0.5,
            0,
            0,
            1,
            0,
            1,
            Optional.of(EvidenceRef.of("terms.md", "Delivery", 3, 3)),
            List.of());
    MemoryPath path =
        new MemoryPath(
            "penalty",
            List.of(new PathStep("terms:2", PathStep.SEED, 0.8, Map.of("bm25", 0.8))),
            List.of(node.sourceRef().orElseThrow()),
            node.content(),
            0.8);
    return new RecallResult(
        "penalty",
        RecallMode.HYBRID,
        ScoreWeights.DEFAULT,
        List.of(new RecallItem(node, 0.8, path)),
        Map.of());
  }

  @Test
  void readResult_ofTheServersPalaceForm_isTheResult() {
    RecallResult r = result();
    String palace =
        PalaceWire.writeRecall(new PalaceRecallResult(r, List.of(), List.of(), Optional.empty()));
    assertThat(palace).contains("activation_snapshot").contains("retrieved_memories");
    assertThat(RecallWire.readResult(palace)).isEqualTo(r);
    assertThat(RecallWire.readResult(RecallWire.write(r))).isEqualTo(r);
  }

  @Test
  void readResult_stillRefusesAMemberNoOneWrites() {
    String odd = RecallWire.write(result()).replaceFirst("\\{", "{\"surprise\":1,");
    assertThatThrownBy(() -> RecallWire.readResult(odd))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("surprise");
  }

  @Test
  void describe_andSources_renderThePathOnOneLine() {
    MemoryPath path = result().items().get(0).path();
    assertThat(path.describe()).isEqualTo("seed terms:2 (0.800)");
    assertThat(path.sources()).containsExactly("terms.md § Delivery, line 3");
  }
}
