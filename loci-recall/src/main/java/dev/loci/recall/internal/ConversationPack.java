package dev.loci.recall.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.InvalidRequestException;
import dev.loci.recall.EvidenceRef;
import dev.loci.recall.IngestReport;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.ScoreWeights;
import dev.loci.recall.spi.DomainPack;
import dev.loci.recall.spi.Ingestion;
import dev.loci.recall.spi.SourceDocument;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code conversation} domain pack: multi-session conversations in the LoCoMo layout.
 *
 * <p>The file is an array of samples (or one sample object), each with a {@code sample_id} and a
 * {@code conversation} object holding {@code session_<n>} arrays of turns ({@code speaker}, {@code
 * dia_id}, {@code text}) and {@code session_<n>_date_time} strings. Each sample becomes a graph in
 * the child namespace named by its {@code sample_id} (lower-cased; characters a namespace label
 * cannot hold become {@code -}), so that turn ids, which repeat across samples, stay unique. A lone
 * sample without an id goes to the target namespace itself.
 *
 * <p>One node per turn, typed {@code turn}, with id = its {@code dia_id} and content {@code
 * speaker: text} (plus {@code [image: caption]} when the turn shares an image), the session and its
 * date in the attributes; {@code next_turn} edges between consecutive turns of a session, followed
 * both ways, and {@code same_session} edges (both ways) from each turn to the next {@value
 * #SAME_SESSION_REACH} turns of its session: a bounded neighbourhood, as {@code same_section} in
 * the markdown packs, so a session of n turns writes at most {@value #SAME_SESSION_REACH}n such
 * edges rather than n²/2, which bounded only by {@code ingest_edges_per_document} let one long
 * session fill an ingest's whole edge budget. 16 rather than markdown's 8: LoCoMo's sessions are
 * 20-30 turns long, and at 8 {@code ppr} lost 0.014 of turn recall_all@5 on conversations 1-2 while
 * at 16 it kept what the clique gave (docs/benchmarks.md).
 *
 * <p>Quirks survived and reported as skipped, never fatal: session dates with no session, turns
 * without a {@code dia_id}, speaker or text, repeated {@code dia_id}s, samples without an id among
 * several, and non-array sessions. Image fields ({@code img_url}, {@code blip_caption}) are kept as
 * the caption only.
 */
public final class ConversationPack implements DomainPack {
  /** The pack's name. */
  public static final String NAME = "conversation";

  static final double NEXT_TURN = 0.6;
  static final double SAME_SESSION = 0.2;

  /** How many turns ahead in its session a turn gets a {@code same_session} edge to. */
  static final int SAME_SESSION_REACH = 16;

  private static final Pattern SESSION = Pattern.compile("session_(\\d+)");
  private static final Pattern SESSION_DATE = Pattern.compile("session_(\\d+)_date_time");
  private static final Pattern LABEL = Pattern.compile("[a-z0-9][a-z0-9_-]{0,62}");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public ScoreWeights weights() {
    return new ScoreWeights(0.6, 0.3, 0.0, 0.1);
  }

  @Override
  public Ingestion read(SourceDocument doc) {
    JsonNode root;
    try {
      root = RecallJson.MAPPER.readTree(doc.text());
    } catch (JsonProcessingException e) {
      throw new InvalidRequestException(
          "path", doc.path() + " is not JSON: " + e.getOriginalMessage());
    }
    if (root == null || !(root.isArray() || root.isObject())) {
      throw new InvalidRequestException(
          "path", doc.path() + ": expected an array of conversation samples or one sample");
    }
    List<JsonNode> samples = new ArrayList<>();
    if (root.isArray()) {
      root.forEach(samples::add);
    } else {
      samples.add(root);
    }
    List<Ingestion.Graph> graphs = new ArrayList<>();
    List<IngestReport.Skipped> skipped = new ArrayList<>();
    Set<String> labels = new HashSet<>();
    for (int i = 0; i < samples.size(); i++) {
      JsonNode sample = samples.get(i);
      String where = doc.path() + " sample " + (i + 1);
      JsonNode conversation = sample.path("conversation");
      if (!conversation.isObject()) {
        skipped.add(new IngestReport.Skipped(where, "no 'conversation' object"));
        continue;
      }
      Optional<String> label = Optional.empty();
      JsonNode id = sample.get("sample_id");
      if (id != null && id.isTextual() && !id.asText().isBlank()) {
        String l = label(id.asText());
        if (!LABEL.matcher(l).matches()) {
          skipped.add(
              new IngestReport.Skipped(
                  where, "sample_id '" + id.asText() + "' cannot name a namespace"));
          continue;
        }
        label = Optional.of(l);
        where = doc.path() + " " + id.asText();
      } else if (samples.size() > 1) {
        skipped.add(
            new IngestReport.Skipped(where, "no sample_id, needed when a file has several"));
        continue;
      }
      if (!labels.add(label.orElse(""))) {
        skipped.add(new IngestReport.Skipped(where, "sample_id repeats an earlier sample"));
        continue;
      }
      graphs.add(sample(doc, where, label, conversation, skipped));
    }
    return new Ingestion(graphs, skipped);
  }

  private static String label(String sampleId) {
    String l = sampleId.strip().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_-]", "-");
    return l.length() > 63 ? l.substring(0, 63) : l;
  }

  private Ingestion.Graph sample(
      SourceDocument doc,
      String where,
      Optional<String> label,
      JsonNode conversation,
      List<IngestReport.Skipped> skipped) {
    Map<Integer, JsonNode> sessions = new TreeMap<>();
    Map<Integer, String> dates = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = conversation.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      Matcher s = SESSION.matcher(f.getKey());
      Matcher d = SESSION_DATE.matcher(f.getKey());
      if (s.matches()) {
        if (f.getValue().isArray()) {
          sessions.put(Integer.parseInt(s.group(1)), f.getValue());
        } else {
          skipped.add(new IngestReport.Skipped(where + "/" + f.getKey(), "not an array of turns"));
        }
      } else if (d.matches() && f.getValue().isTextual()) {
        dates.put(Integer.parseInt(d.group(1)), f.getValue().asText());
      }
    }
    dates.keySet().stream()
        .filter(n -> !sessions.containsKey(n))
        .forEach(
            n ->
                skipped.add(
                    new IngestReport.Skipped(
                        where + "/session_" + n, "a session date with no turns")));
    List<MemoryNode> nodes = new ArrayList<>();
    List<MemoryEdge> edges = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (Map.Entry<Integer, JsonNode> s : sessions.entrySet()) {
      String session = "session_" + s.getKey();
      Optional<String> date = Optional.ofNullable(dates.get(s.getKey()));
      String section = label.map(l -> l + "/").orElse("") + session;
      List<String> turns = new ArrayList<>();
      int t = 0;
      for (JsonNode turn : s.getValue()) {
        t++;
        String at = where + "/" + session + " turn " + t;
        String diaId = turn.path("dia_id").asText("").strip();
        String speaker = turn.path("speaker").asText("").strip();
        String text = turn.path("text").asText("").strip();
        if (diaId.isEmpty() || speaker.isEmpty() || !turn.path("text").isTextual()) {
          skipped.add(
              new IngestReport.Skipped(
                  at,
                  "a turn needs dia_id, speaker and text; missing "
                      + (diaId.isEmpty() ? "dia_id" : speaker.isEmpty() ? "speaker" : "text")));
          continue;
        }
        if (!ids.add(diaId)) {
          skipped.add(new IngestReport.Skipped(at, "dia_id " + diaId + " repeats an earlier turn"));
          continue;
        }
        String caption = turn.path("blip_caption").asText("").strip();
        String content =
            speaker + ": " + text + (caption.isEmpty() ? "" : " [image: " + caption + "]");
        if (text.isEmpty() && caption.isEmpty()) {
          skipped.add(new IngestReport.Skipped(at, "turn " + diaId + " has no text"));
          continue;
        }
        MemoryNode.Builder b =
            MemoryNode.builder(diaId, "turn", content)
                .attribute("pack", NAME)
                .attribute(RecallQuery.SPEAKER, speaker)
                .attribute("session", session)
                .sourceRef(
                    new EvidenceRef(
                        doc.path(),
                        Optional.of(section + "/" + diaId),
                        Optional.empty(),
                        Optional.empty()));
        date.ifPresent(d -> b.attribute("session_time", d));
        label.ifPresent(l -> b.attribute("sample_id", l));
        if (!caption.isEmpty()) {
          b.attribute("image_caption", caption);
        }
        nodes.add(b.build());
        turns.add(diaId);
      }
      EvidenceRef ref =
          new EvidenceRef(doc.path(), Optional.of(section), Optional.empty(), Optional.empty());
      for (int i = 0; i < turns.size(); i++) {
        for (int j = i + 1; j < Math.min(turns.size(), i + 1 + SAME_SESSION_REACH); j++) {
          if (j == i + 1) {
            edges.add(
                MemoryEdge.of(turns.get(i), turns.get(j), "next_turn", NEXT_TURN)
                    .bothWays()
                    .withSource(ref));
          }
          edges.add(
              MemoryEdge.of(turns.get(i), turns.get(j), "same_session", SAME_SESSION)
                  .bothWays()
                  .withSource(ref));
        }
      }
    }
    return new Ingestion.Graph(label, nodes, edges);
  }
}
