package dev.loci.recall.internal;

import dev.loci.recall.EpisodicMemory;
import dev.loci.recall.EvidenceRef;
import dev.loci.recall.LinkType;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryLink;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.MemoryState;
import dev.loci.recall.PalaceMemory;
import dev.loci.recall.PalaceSpace;
import dev.loci.recall.RouteMemory;
import dev.loci.recall.SemanticMemory;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The bridge between the palace and the recall graph: which kind of memory a node is, which space
 * it is located in, and which palace links its edges are. Pure functions over nodes and edges, so
 * every recall mode keeps working on the same graph the palace reads.
 *
 * <p>Kinds: a node of type {@code route} is a route memory; a node of type {@code turn} or {@code
 * episode}, or with a {@code session} attribute, is episodic; everything else (clauses, steps,
 * paragraphs, consolidated summaries) is semantic.
 *
 * <p>Spaces: a node's {@code space} attribute if it has one; else its {@code session} (a
 * conversation session); else {@code <file stem>:<section slug>} from its source reference's
 * section, nested in the document space {@code <file stem>}; else the document space; else none.
 */
public final class PalaceBridge {
  /** The node type of a stored route. */
  public static final String ROUTE_TYPE = "route";

  /** The node type of a consolidated summary. */
  public static final String SUMMARY_TYPE = "semantic_summary";

  private PalaceBridge() {}

  /** The kind of memory {@code n} is: {@code episodic}, {@code semantic} or {@code route}. */
  public static String kind(MemoryNode n) {
    if (n.type().equals(ROUTE_TYPE)) {
      return "route";
    }
    if (n.type().equals("turn")
        || n.type().equals("episode")
        || n.attributes().containsKey("session")) {
      return "episodic";
    }
    return "semantic";
  }

  /** A space and where it nests, as read off one node. */
  public record Place(String id, String kind, String title, Optional<Place> parent) {}

  /** Where {@code n} is located, if anywhere. */
  public static Optional<Place> place(MemoryNode n) {
    String explicit = n.attributes().get("space");
    if (explicit != null && !explicit.isBlank()) {
      return Optional.of(new Place(explicit, "topic", explicit, Optional.empty()));
    }
    String session = n.attributes().get("session");
    if (session != null && !session.isBlank()) {
      return Optional.of(new Place(session, "session", session, Optional.empty()));
    }
    if (n.sourceRef().isEmpty()) {
      return Optional.empty();
    }
    EvidenceRef ref = n.sourceRef().get();
    String stem = stem(ref.path());
    Place doc = new Place(stem, "document", ref.path(), Optional.empty());
    if (ref.section().isPresent() && !slug(ref.section().get()).isEmpty()) {
      String title = ref.section().get();
      return Optional.of(new Place(stem + ":" + slug(title), "section", title, Optional.of(doc)));
    }
    return Optional.of(doc);
  }

  /** The id of the space {@code n} is located in, if any. */
  public static Optional<String> spaceId(MemoryNode n) {
    return place(n).map(Place::id);
  }

  /**
   * 16 hex digits of the SHA-256 of {@code parts}, each followed by a zero byte: a short stable id
   * for what the palace derives (routes, summaries).
   */
  public static String digest(List<String> parts) {
    try {
      java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
      for (String s : parts) {
        md.update(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        md.update((byte) 0);
      }
      return java.util.HexFormat.of().formatHex(md.digest()).substring(0, 16);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing", e);
    }
  }

  /** The file name of {@code path} without directories and extension. */
  public static String stem(String path) {
    String name = path.replace('\\', '/');
    name = name.substring(name.lastIndexOf('/') + 1);
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }

  /**
   * A heading as an id part: lower case, accents dropped, every run of other characters one {@code
   * -}, no {@code -} at either end ({@code "3. Escalation policy"} is {@code 3-escalation-policy}).
   */
  public static String slug(String title) {
    String plain = Normalizer.normalize(title, Normalizer.Form.NFD).replaceAll("\\p{M}+", "");
    return plain.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
  }

  /**
   * The spaces {@code nodes} are located in, with their parents, sorted by id; each with how many
   * of {@code nodes} are located directly in it.
   */
  public static List<PalaceSpace> spaces(List<MemoryNode> nodes) {
    Map<String, Place> places = new LinkedHashMap<>();
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (MemoryNode n : nodes) {
      Optional<Place> p = place(n);
      if (p.isEmpty()) {
        continue;
      }
      counts.merge(p.get().id(), 1, Integer::sum);
      for (Optional<Place> at = p; at.isPresent(); at = at.get().parent()) {
        places.putIfAbsent(at.get().id(), at.get());
      }
    }
    List<PalaceSpace> out = new ArrayList<>();
    places.forEach(
        (id, p) ->
            out.add(
                new PalaceSpace(
                    id,
                    p.kind(),
                    p.title(),
                    p.parent().map(Place::id),
                    counts.getOrDefault(id, 0))));
    out.sort(Comparator.comparing(PalaceSpace::id));
    return out;
  }

  /** The palace links of {@code edges} (those touching one node), plus its place. */
  public static List<MemoryLink> links(MemoryNode n, List<MemoryEdge> edges) {
    List<MemoryLink> out = new ArrayList<>();
    for (MemoryEdge e : edges) {
      out.add(MemoryLink.of(e));
    }
    spaceId(n)
        .ifPresent(
            s ->
                out.add(
                    new MemoryLink(
                        n.id(), s, LinkType.LOCATED_IN, LinkType.LOCATED_IN.wireName(), 1)));
    return out;
  }

  /**
   * {@code n} as a palace memory.
   *
   * @param edges the live edges touching it
   * @param state its lifecycle when read
   * @param routeSteps its steps, when it is a stored route
   */
  public static PalaceMemory memory(
      MemoryNode n, List<MemoryEdge> edges, MemoryState state, Optional<List<String>> routeSteps) {
    List<MemoryLink> links = links(n, edges);
    Optional<String> space = spaceId(n);
    return switch (kind(n)) {
      case "route" ->
          new RouteMemory(n.id(), n.content(), space, routeSteps.orElse(List.of()), state, links);
      case "episodic" ->
          new EpisodicMemory(
              n.id(),
              n.content(),
              space,
              Optional.ofNullable(n.attributes().get("session_time")),
              Optional.ofNullable(n.attributes().get("speaker")),
              state,
              links);
      default ->
          new SemanticMemory(
              n.id(),
              n.content(),
              space,
              edges.stream()
                  .filter(
                      e ->
                          e.from().equals(n.id())
                              && e.edgeType().equals(LinkType.SUMMARIZES.wireName()))
                  .map(MemoryEdge::to)
                  .toList(),
              state,
              links);
    };
  }
}
