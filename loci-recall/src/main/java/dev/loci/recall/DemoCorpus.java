package dev.loci.recall;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.recall.internal.RecallJson;
import dev.loci.recall.spi.DomainPack;
import dev.loci.recall.spi.SourceDocument;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A small corpus written for Loci and shipped in this jar: a supply contract, a payments runbook,
 * and questions with the ids of the units that answer them (gold). The multi-hop questions have a
 * second piece of evidence that shares no word with the question and is reachable only through an
 * edge, which is what separates the graph modes from the flat ones. Used by {@code loci demo} and
 * by tests.
 */
public final class DemoCorpus {
  /** The name of the bundled cases file, beside the documents. */
  public static final String CASES = "cases.json";

  private static final String BASE = "/dev/loci/recall/demo/";

  private DemoCorpus() {}

  /**
   * One bundled document and the pack that reads it.
   *
   * @param label the namespace label it is ingested under in the demo
   * @param pack the domain pack's name
   * @param document the file name and text
   */
  public record Document(String label, String pack, SourceDocument document) {
    /** Checks presence. */
    public Document {
      Objects.requireNonNull(label, "label");
      Objects.requireNonNull(pack, "pack");
      Objects.requireNonNull(document, "document");
    }

    /** The domain pack that reads it. */
    public DomainPack domainPack() {
      return DomainPacks.named(pack);
    }
  }

  /**
   * A question about one bundled document.
   *
   * @param id a short name
   * @param label the namespace label of the document it asks about
   * @param question the question
   * @param gold the ids of the units that answer it, first the one that matches it in words
   * @param multiHop whether part of the answer is reachable only through an edge
   */
  public record Question(
      String id, String label, String question, List<String> gold, boolean multiHop) {
    /** Checks presence and copies the gold ids. */
    public Question {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(label, "label");
      Objects.requireNonNull(question, "question");
      gold = List.copyOf(gold);
    }
  }

  /** The contract ({@code contract}, {@code markdown:contract}) and the runbook. */
  public static List<Document> documents() {
    return List.of(
        new Document("contract", "markdown:contract", load("01_supply_agreement.md")),
        new Document("runbook", "markdown:runbook", load("02_payments_runbook.md")));
  }

  /**
   * The questions, in file order. They are stored once, as the benchmark cases file {@value #CASES}
   * (the format {@code loci bench cases} reads), beside the documents.
   */
  public static List<Question> questions() {
    JsonNode root;
    try {
      root = RecallJson.MAPPER.readTree(casesJson());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Question> out = new ArrayList<>();
    for (JsonNode q : root.path("cases")) {
      String file = q.path("document").asText();
      String label =
          documents().stream()
              .filter(d -> d.document().path().equals(file))
              .findFirst()
              .orElseThrow(() -> new IllegalStateException(CASES + " names " + file))
              .label();
      List<String> gold = new ArrayList<>();
      q.path("expectation").path("evidence_node_ids").forEach(g -> gold.add(g.asText()));
      out.add(
          new Question(
              q.path("case_id").asText(),
              label,
              q.path("query").asText(),
              gold,
              q.path("multi_hop").asBoolean()));
    }
    return out;
  }

  /** The bundled cases file's text: the demo questions as {@code loci bench cases} reads them. */
  public static String casesJson() {
    return text(CASES);
  }

  private static SourceDocument load(String name) {
    return new SourceDocument(name, text(name));
  }

  private static String text(String name) {
    try (InputStream in = DemoCorpus.class.getResourceAsStream(BASE + name)) {
      if (in == null) {
        throw new IllegalStateException("the demo corpus lacks " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
