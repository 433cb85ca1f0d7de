package dev.loci.recall.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.loci.FuzzBudget;
import dev.loci.InvalidRequestException;
import dev.loci.recall.spi.DomainPack;
import dev.loci.recall.spi.Ingestion;
import dev.loci.recall.spi.SourceDocument;
import java.nio.charset.StandardCharsets;

/**
 * Coverage-guided fuzzing of the conversation pack. Invariants: {@code read} returns an ingestion
 * or throws {@link InvalidRequestException} naming a field, nothing else; the edges grow at most
 * linearly with the units (no section clique: issue 14 finding 1); the work stays within a generous
 * linear budget ({@link FuzzBudget}). See docs/fuzzing.md.
 */
class ConversationPackFuzzTest {
  private static final DomainPack PACK = new ConversationPack();

  @FuzzTest(maxDuration = "10s")
  void read_fuzzedDocument_ingestionOrInvalidRequest_linearEdges(byte[] bytes) {
    long start = FuzzBudget.start();
    String text = new String(bytes, StandardCharsets.UTF_8);
    try {
      Ingestion in = PACK.read(new SourceDocument("chat.json", text));
      for (Ingestion.Graph g : in.graphs()) {
        assertThat(g.edges().size()).isLessThanOrEqualTo(16 * g.nodes().size() + 16);
      }
    } catch (InvalidRequestException e) {
      assertThat(e.field()).isNotBlank();
      assertThat(e.getMessage()).isNotBlank();
    }
    FuzzBudget.assertLinear(start, bytes.length);
  }
}
