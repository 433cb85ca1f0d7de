package dev.loci.subjects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.InvalidRequestException;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.pathway.PathwayMemory;
import dev.loci.pathway.RedactionPolicy;
import dev.loci.recall.DomainPacks;
import dev.loci.recall.HashingEmbeddingProvider;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.spi.SourceDocument;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PII redaction beyond the pathway fields: a namespace's redaction policy, extended by its owner,
 * also redacts trace content and memory-graph nodes before they are written; off by default.
 */
class ContentRedactionTest {
  static final Namespace NS = Namespace.of("acme.hr");

  @TempDir Path dir;

  @Test
  void traceContentAndNodes_areKeptAsWritten_byDefault() {
    try (Loci loci = Loci.builder().dataDir(dir).open()) {
      String content = "{\"note\":\"mail ann@example.com\"}";
      assertThat(loci.traces().add(NS, content, List.of()).content()).isEqualTo(content);
      RecallMemory recall = RecallMemory.of(loci, HashingEmbeddingProvider.create());
      assertThat(
              recall
                  .putNode(NS, MemoryNode.builder("n", "note", "call +44 20 7946 0958").build())
                  .value()
                  .content())
          .contains("7946");
    }
  }

  @Test
  void aPolicyExtendedToTraces_redactsEveryStringValue_keepsKeysSubjectsAndNumbers() {
    try (Loci loci = Loci.builder().dataDir(dir).open()) {
      PathwayMemory.of(loci)
          .setRedactionPolicy(
              Namespace.of("acme"), RedactionPolicy.defaults().withContent(true, false));
      String stored =
          loci.traces()
              .add(
                  NS,
                  "{\"subject_ids\":[\"ann@example.com\"],\"note\":\"mail ann@example.com\","
                      + "\"nested\":{\"calls\":[\"+44 20 7946 0958\",\"none\"]},"
                      + "\"ann@example.com\":1.10}",
                  List.of())
              .content();
      assertThat(stored)
          .isEqualTo(
              "{\"subject_ids\":[\"ann@example.com\"],\"note\":\"mail [email]\","
                  + "\"nested\":{\"calls\":[\"[phone]\",\"none\"]},"
                  + "\"ann@example.com\":1.10}");
      // updates and revisions too; nodes are not covered by this policy
      String uid = loci.traces().add(NS, "\"plain\"", List.of()).uid();
      assertThat(loci.traces().update(NS, uid, "\"to bob@example.org\"").content())
          .isEqualTo("\"to [email]\"");
      assertThat(loci.traces().revise(NS, uid, "\"cc bob@example.org\"", List.of()).content())
          .isEqualTo("\"cc [email]\"");
      RecallMemory recall = RecallMemory.of(loci, HashingEmbeddingProvider.create());
      assertThat(
              recall
                  .putNode(NS, MemoryNode.builder("n", "note", "bob@example.org").build())
                  .value()
                  .content())
          .isEqualTo("bob@example.org");
    }
  }

  @Test
  void aPolicyExtendedToNodes_redactsPutAndIngestedNodes_contentAndAttributes() {
    try (Loci loci = Loci.builder().dataDir(dir).open()) {
      PathwayMemory.of(loci)
          .setRedactionPolicy(NS, RedactionPolicy.defaults().withContent(false, true));
      RecallMemory recall = RecallMemory.of(loci, HashingEmbeddingProvider.create());
      MemoryNode put =
          recall
              .putNode(
                  NS,
                  MemoryNode.builder("n", "note", "write to ann@example.com")
                      .attribute("contact", "ann@example.com")
                      .build())
              .value();
      assertThat(put.content()).isEqualTo("write to [email]");
      assertThat(put.attributes()).containsEntry("contact", "[email]");

      recall.ingest(
          NS,
          DomainPacks.named("markdown:contract"),
          new SourceDocument("c.md", "# Notices\n\nNotices go to legal@acme.example.\n"),
          RecallMemory.Progress.NONE);
      List<String> contents =
          recall.nodes(NS, 100, java.util.Optional.empty()).items().stream()
              .map(v -> v.value().content())
              .toList();
      assertThat(contents).noneMatch(c -> c.contains("legal@acme.example"));
      assertThat(contents).anyMatch(c -> c.contains("Notices go to [email]"));
      assertThat(loci.traces().add(NS, "\"ann@example.com\"", List.of()).content())
          .isEqualTo("\"ann@example.com\"");
    }
  }

  @Test
  void policyJson_carriesTheExtension_andRefusesABadFlag() {
    RedactionPolicy p = RedactionPolicy.defaults().withContent(true, true);
    assertThat(RedactionPolicy.fromJson(p.toJson())).isEqualTo(p);
    assertThat(p.toJson()).contains("\"trace_content\":true").contains("\"node_content\":true");
    assertThat(RedactionPolicy.defaults().toJson()).doesNotContain("trace_content");
    assertThatThrownBy(
            () ->
                RedactionPolicy.fromJson("{\"rules\":[{\"name\":\"email\"}],\"trace_content\":1}"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("trace_content");
    assertThat(RedactionPolicy.off().withContent(true, true).traceContent()).isFalse();
  }
}
