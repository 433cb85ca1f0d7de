package dev.loci.subjects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.EgressRefusedException;
import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.recall.HashingEmbeddingProvider;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.spi.EmbeddingProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Vertical-aware routing: content of a local-only vertical (healthcare) never reaches a model that
 * declares itself remote, while local models and other namespaces are unaffected.
 */
class EgressTest {
  static final Namespace WARD = Namespace.of("clinic.ward");
  static final Namespace SALES = Namespace.of("acme.sales");
  static final LegalCapability LEGAL = new LegalCapability("dpo");

  @TempDir Path dir;

  /** A provider standing for a hosted model: it says it is remote and records what it was sent. */
  static final class RemoteProvider implements EmbeddingProvider {
    final HashingEmbeddingProvider inner = HashingEmbeddingProvider.create();
    final List<String> sent = new ArrayList<>();

    @Override
    public boolean local() {
      return false;
    }

    @Override
    public String modelId() {
      return "remote-test-v1";
    }

    @Override
    public int dimension() {
      return inner.dimension();
    }

    @Override
    public synchronized List<float[]> embedDocuments(List<String> texts) {
      sent.addAll(texts);
      return inner.embedDocuments(texts);
    }
  }

  @Test
  void aRemoteModel_isRefusedHealthcareContent_andGetsEveryoneElses() {
    try (Loci loci = Loci.builder().dataDir(dir).open()) {
      Subjects.of(loci)
          .setNamespacePolicy(
              LEGAL,
              Namespace.of("clinic"),
              new SubjectPolicy(
                  OptionalInt.empty(), false, Optional.of("healthcare"), Optional.empty()));
      RemoteProvider remote = new RemoteProvider();
      RecallMemory viaRemote = RecallMemory.of(loci, remote);
      viaRemote.putNode(WARD, MemoryNode.builder("n1", "note", "PATIENT-X has diabetes").build());
      viaRemote.putNode(SALES, MemoryNode.builder("n1", "note", "deal closed in May").build());

      assertThatThrownBy(
              () ->
                  viaRemote.recall(
                      WARD, RecallQuery.builder("diabetes", RecallMode.EMBEDDING).build()))
          .isInstanceOf(EgressRefusedException.class)
          .hasMessageContaining("remote-test-v1")
          .hasMessageContaining("healthcare");
      assertThatThrownBy(() -> viaRemote.embed(WARD, (ns, done, total) -> {}))
          .isInstanceOf(EgressRefusedException.class);
      assertThat(remote.sent)
          .as("nothing of the ward was sent, at the put or after")
          .noneMatch(t -> t.contains("PATIENT") || t.contains("diabetes"));

      // lexical recall sends nothing anywhere and still works
      assertThat(
              viaRemote
                  .recall(WARD, RecallQuery.builder("diabetes", RecallMode.LEXICAL).build())
                  .ids())
          .containsExactly("n1");
      // another namespace may use the remote model
      assertThat(
              viaRemote
                  .recall(SALES, RecallQuery.builder("deal", RecallMode.EMBEDDING).build())
                  .ids())
          .containsExactly("n1");
      assertThat(remote.sent).contains("deal closed in May").noneMatch(t -> t.contains("PATIENT"));
      // a local model may embed the ward
      assertThat(
              RecallMemory.of(loci)
                  .recall(WARD, RecallQuery.builder("diabetes", RecallMode.EMBEDDING).build())
                  .ids())
          .containsExactly("n1");
    }
  }

  @Test
  void aSubjectOfALocalOnlyVertical_isRefusedAtTheBoundary() {
    try (Loci loci = Loci.builder().dataDir(dir).open()) {
      Subjects.of(loci)
          .setPolicy(
              LEGAL,
              SALES,
              "pat-9",
              new SubjectPolicy(
                  OptionalInt.empty(), false, Optional.of("healthcare"), Optional.empty()));
      assertThatThrownBy(() -> loci.egress().check(SALES, List.of("pat-9"), "an LLM extractor"))
          .isInstanceOf(EgressRefusedException.class)
          .hasMessageContaining("an LLM extractor");
      loci.egress().check(SALES, List.of("someone-else"), "an LLM extractor");
    }
  }
}
