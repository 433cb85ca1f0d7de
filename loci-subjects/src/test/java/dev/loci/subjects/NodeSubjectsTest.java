package dev.loci.subjects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.InvalidRequestException;
import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.VerifyReport;
import dev.loci.recall.DomainPacks;
import dev.loci.recall.HashingEmbeddingProvider;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.spi.SourceDocument;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory-graph nodes that name subjects: they are in the subject's manifest, and erasure leaves
 * their content in no journal line, snapshot or index file (Lucene terms included, which a byte
 * grep can miss since term dictionaries are compressed), while other nodes keep theirs.
 */
class NodeSubjectsTest {
  static final Namespace NS = Namespace.of("acme.notes");
  static final LegalCapability LEGAL = new LegalCapability("dpo@acme");
  static final String ALICE = "subj-alice-n5";

  @TempDir Path dir;

  @Test
  void nodesNamingASubject_areInTheManifest_andErasureLeavesNoTermInAnyIndex() throws IOException {
    try (Loci loci = Loci.builder().dataDir(dir).open()) {
      RecallMemory recall = RecallMemory.of(loci, HashingEmbeddingProvider.create());
      recall.putNode(
          NS,
          MemoryNode.builder("n-alice", "note", "Alice said qorvazk is her password hint")
              .subjectIds(List.of(ALICE))
              .build());
      recall.putNode(NS, MemoryNode.builder("n-other", "note", "the zelmozk vault opens").build());
      recall.ingest(
          NS,
          DomainPacks.named("markdown:contract"),
          new SourceDocument(
              "alice_notes.md", "# Review\n\nThe brontazk review is due.\n", List.of(ALICE)),
          RecallMemory.Progress.NONE);
      // enough other nodes that the erased ones are under Lucene's share of deletes that merges
      // away by itself: only an explicit merge removes their terms
      for (int i = 0; i < 30; i++) {
        recall.putNode(NS, MemoryNode.builder("filler-" + i, "note", "filler text " + i).build());
      }
      recall.embed(NS, RecallMemory.Progress.NONE);
    }
    assertThat(termCount("qorvazk")).as("indexed before").isPositive();
    assertThat(termCount("brontazk")).as("indexed before").isPositive();

    try (Loci loci = Loci.builder().dataDir(dir).open()) {
      RecallMemory recall = RecallMemory.of(loci, HashingEmbeddingProvider.create());
      Subjects subjects = Subjects.of(loci);
      var manifest = subjects.manifest(ALICE, NamespaceScope.of("acme.*"));
      assertThat(manifest.countsByKind()).containsKey("node");
      assertThat(manifest.records()).extracting(r -> r.id()).contains("n-alice");
      int held = manifest.records().size();

      var report = subjects.erase(LEGAL, NamespaceScope.of("acme.*"), NS, ALICE, "request 9");
      assertThat(report.records()).isEqualTo(held);

      assertThat(recall.node(NS, "n-alice").orElseThrow().content()).isEqualTo("[erased]");
      assertThat(recall.node(NS, "n-other").orElseThrow().content()).contains("zelmozk");
      assertThat(
              recall.recall(NS, RecallQuery.builder("qorvazk", RecallMode.LEXICAL).build()).items())
          .isEmpty();
      assertThat(
              recall.recall(NS, RecallQuery.builder("zelmozk", RecallMode.LEXICAL).build()).items())
          .isNotEmpty();
    }
    for (String secret : List.of("qorvazk", "brontazk")) {
      assertThat(termCount(secret)).as("index terms of %s", secret).isZero();
      assertThat(filesContaining(secret)).as("files holding %s", secret).isEmpty();
    }
    assertThat(filesContaining(ALICE)).isEmpty();
    assertThat(termCount("zelmozk")).isPositive();
    VerifyReport verify = Loci.verify(dir);
    assertThat(verify.ok()).as("verify: %s", verify.damage()).isTrue();

    try (Loci loci = Loci.builder().dataDir(dir).open()) {
      RecallMemory recall = RecallMemory.of(loci, HashingEmbeddingProvider.create());
      assertThat(recall.node(NS, "n-alice").orElseThrow().content()).isEqualTo("[erased]");
      assertThat(recall.node(NS, "n-alice").orElseThrow().subjectIds()).isEmpty();
      assertThat(Subjects.of(loci).manifest(ALICE, NamespaceScope.of("acme.*")).records())
          .isEmpty();
    }
  }

  @Test
  void badSubjectIds_areRefusedNamingTheField() {
    assertThatThrownBy(
            () -> MemoryNode.builder("n", "note", "x").subjectIds(List.of("a", "a")).build())
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("subject_ids[1]");
    assertThatThrownBy(() -> MemoryNode.builder("n", "note", "x").subjectIds(List.of(" ")).build())
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("subject_ids[0]");
  }

  /** How many documents of any index under the data directory, deleted ones too, hold {@code t}. */
  private long termCount(String t) throws IOException {
    long n = 0;
    List<Path> indexes;
    try (Stream<Path> files = Files.walk(dir)) {
      indexes =
          files
              .filter(f -> f.getFileName().toString().startsWith("segments_"))
              .map(Path::getParent)
              .distinct()
              .toList();
    }
    assertThat(indexes).as("index directories").isNotEmpty();
    for (Path index : indexes) {
      try (FSDirectory d = FSDirectory.open(index);
          DirectoryReader r = DirectoryReader.open(d)) {
        for (LeafReaderContext leaf : r.leaves()) {
          for (String field : leafFields(leaf)) {
            Terms terms = leaf.reader().terms(field);
            if (terms == null) {
              continue;
            }
            TermsEnum te = terms.iterator();
            if (te.seekExact(new BytesRef(t))) {
              n += te.docFreq();
            }
          }
        }
      }
    }
    return n;
  }

  private static List<String> leafFields(LeafReaderContext leaf) {
    List<String> out = new ArrayList<>();
    leaf.reader().getFieldInfos().forEach(fi -> out.add(fi.name));
    return out;
  }

  private List<Path> filesContaining(String text) throws IOException {
    byte[] needle = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    List<Path> out = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        if (SubjectsTest.indexOf(Files.readAllBytes(f), needle) >= 0) {
          out.add(dir.relativize(f));
        }
      }
    }
    return out;
  }
}
