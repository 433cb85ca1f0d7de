package dev.loci.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.Namespace;
import dev.loci.Page;
import dev.loci.StaleVersionException;
import dev.loci.StorageException;
import dev.loci.Trace;
import dev.loci.TraceQuery;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Chat transcripts kept as versioned traces, one revision chain per conversation: what the chat
 * memory adapters of LangChain4j and Spring AI store through, embedded or remote alike.
 *
 * <p>Design: a conversation is a chain of traces in one namespace, each tagged {@value #TAG} and
 * {@code loci:conversation:<id>}, whose content is {@code {"conversation_id": ..., "messages":
 * [...]}} (the messages in the adapter's own JSON form). Saving revises the newest version, on the
 * condition that it is still the newest (a concurrent save is detected and the save retried on the
 * new head), then retires the version it replaced, so exactly one version of a conversation is
 * found by search. Deleting retires the newest version: nothing is erased, and the whole chain
 * stays readable to a legal-tier credential through trace history. A crash between revising and
 * retiring leaves two unretired versions; the next read takes the newer and retires the other.
 *
 * <p>Thread-safe; concurrent saves of one conversation are last-writer-wins, as a chat memory is.
 */
public final class Conversations {
  /** The tag every version of every conversation carries. */
  public static final String TAG = "loci:conversation";

  /** The longest conversation id accepted, so that its tag stays within a trace tag's limit. */
  public static final int MAX_ID_LENGTH = 200;

  private static final String ID_TAG = TAG + ":";
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int ATTEMPTS = 8;

  private final LociApi api;
  private final Namespace ns;

  private Conversations(LociApi api, Namespace ns) {
    this.api = Objects.requireNonNull(api, "api");
    this.ns = Objects.requireNonNull(ns, "namespace");
  }

  /** The conversations of namespace {@code ns}, over {@code api}. */
  public static Conversations of(LociApi api, Namespace ns) {
    return new Conversations(api, ns);
  }

  /** The namespace the conversations live in. */
  public Namespace namespace() {
    return ns;
  }

  /**
   * The messages of a conversation as the JSON array last saved; empty if it was never saved or was
   * deleted.
   *
   * @throws IllegalArgumentException if {@code id} is blank, too long or has control characters
   */
  public Optional<JsonNode> load(String id) {
    return head(checkId(id)).map(t -> content(t).path("messages"));
  }

  /**
   * Replaces the messages of a conversation: a new version of its chain.
   *
   * @param messages a JSON array of the messages, in the adapter's own form
   * @return the new version
   * @throws IllegalArgumentException if {@code id} is not a valid conversation id or {@code
   *     messages} is not an array
   */
  public Trace save(String id, JsonNode messages) {
    checkId(id);
    if (!messages.isArray()) {
      throw new IllegalArgumentException("messages must be a JSON array, found " + messages);
    }
    ObjectNode body = MAPPER.createObjectNode().put("conversation_id", id);
    body.set("messages", messages);
    String content = body.toString();
    List<String> tags = List.of(TAG, ID_TAG + id);
    StaleVersionException last = null;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Optional<Trace> head = head(id);
      if (head.isEmpty()) {
        return api.addTrace(ns, content, tags);
      }
      Trace h = head.get();
      Trace next;
      try {
        next = api.reviseTrace(ns, h.uid(), content, tags, h.version());
      } catch (StaleVersionException e) {
        last = e; // another save got there first: save on top of it
        continue;
      }
      retireQuietly(h);
      return next;
    }
    throw new StorageException(
        "conversation '" + id + "' kept changing under " + ATTEMPTS + " attempts to save it", last);
  }

  /**
   * Deletes a conversation by retiring its newest version; its history stays in the journal.
   *
   * @return whether there was a conversation to delete
   */
  public boolean delete(String id) {
    Optional<Trace> head = head(checkId(id));
    head.ifPresent(this::retireQuietly);
    return head.isPresent();
  }

  /** The ids of every conversation that has messages, each once, in the order search lists them. */
  public List<String> ids() {
    Set<String> ids = new LinkedHashSet<>();
    Optional<String> cursor = Optional.empty();
    do {
      TraceQuery.Builder q = TraceQuery.in(ns).tag(TAG).limit(TraceQuery.MAX_LIMIT);
      cursor.ifPresent(q::cursor);
      Page<Trace> page = api.searchTraces(q.build());
      for (Trace t : page.items()) {
        t.tags().stream()
            .filter(tag -> tag.startsWith(ID_TAG))
            .findFirst()
            .ifPresent(tag -> ids.add(tag.substring(ID_TAG.length())));
      }
      cursor = page.nextCursor();
    } while (cursor.isPresent());
    return List.copyOf(ids);
  }

  /** The newest unretired version, retiring older ones a crash left behind. */
  private Optional<Trace> head(String id) {
    List<Trace> live =
        new ArrayList<>(
            api.searchTraces(TraceQuery.in(ns).tag(ID_TAG + id).limit(TraceQuery.MAX_LIMIT).build())
                .items());
    if (live.isEmpty()) {
      return Optional.empty();
    }
    live.sort(Comparator.comparing(Trace::createdAt).thenComparing(Trace::uid));
    Trace newest = live.get(live.size() - 1);
    live.subList(0, live.size() - 1).forEach(this::retireQuietly);
    return Optional.of(newest);
  }

  /** Retires a replaced version; one someone else changed meanwhile is left to them. */
  private void retireQuietly(Trace t) {
    try {
      api.retireTrace(ns, t.uid(), t.version());
    } catch (StaleVersionException e) {
      // changed since we read it: whoever changed it decides what it becomes
    }
  }

  private static JsonNode content(Trace t) {
    try {
      return MAPPER.readTree(t.content());
    } catch (IOException e) {
      throw new StorageException("conversation trace " + t.uid() + " holds unreadable JSON", e);
    }
  }

  private static String checkId(String id) {
    Objects.requireNonNull(id, "conversation id");
    if (id.isBlank()
        || id.length() > MAX_ID_LENGTH
        || id.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException(
          "a conversation id is 1-"
              + MAX_ID_LENGTH
              + " characters, not blank, without control characters; found '"
              + (id.length() > 80 ? id.substring(0, 80) + "..." : id)
              + "'");
    }
    return id;
  }
}
