package dev.loci.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.loci.Namespace;
import dev.loci.client.Conversations;
import dev.loci.client.LociApi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;

/**
 * A LangChain4j {@link ChatMemoryStore} that keeps the messages of each chat memory in Loci: one
 * revision chain of traces per memory id in the configured namespace ({@link Conversations}), so
 * every state the memory went through stays in the journal and a deleted memory is retired, never
 * erased.
 *
 * <p>Messages are stored in LangChain4j's own JSON form ({@link ChatMessageSerializer}), so every
 * message type, tool calls included, comes back as it went in. A memory id is used by its {@code
 * toString()}; it must be 1-200 characters without control characters.
 *
 * <p>Thread-safe; concurrent updates of one memory id are last-writer-wins.
 *
 * <pre>{@code
 * LociApi loci = EmbeddedLoci.open(Path.of("data"));   // or LociClient.builder(url).token(t).build()
 * ChatMemoryStore store = LociChatMemoryStore.of(loci, Namespace.of("acme.chat"));
 * ChatMemoryProvider memories =
 *     id -> MessageWindowChatMemory.builder().id(id).maxMessages(20).chatMemoryStore(store).build();
 * }</pre>
 */
public final class LociChatMemoryStore implements ChatMemoryStore {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final Conversations conversations;

  private LociChatMemoryStore(Conversations conversations) {
    this.conversations = conversations;
  }

  /** A store keeping chat memories in namespace {@code ns} through {@code api}. */
  public static LociChatMemoryStore of(LociApi api, Namespace ns) {
    Objects.requireNonNull(api, "api");
    Objects.requireNonNull(ns, "namespace");
    return new LociChatMemoryStore(Conversations.of(api, ns));
  }

  /** The namespace the memories are kept in. */
  public Namespace namespace() {
    return conversations.namespace();
  }

  /** The ids of every chat memory that has messages, each once, in no particular order. */
  public List<String> memoryIds() {
    return conversations.ids();
  }

  /**
   * The messages last stored for {@code memoryId}; empty if none were or the memory was deleted.
   *
   * @throws IllegalArgumentException if the id is blank, too long or has control characters
   */
  @Override
  public List<ChatMessage> getMessages(Object memoryId) {
    return conversations
        .load(id(memoryId))
        .map(json -> ChatMessageDeserializer.messagesFromJson(json.toString()))
        .orElseGet(List::of);
  }

  /** Stores {@code messages} as the new version of {@code memoryId}. */
  @Override
  public void updateMessages(Object memoryId, List<ChatMessage> messages) {
    Objects.requireNonNull(messages, "messages");
    conversations.save(id(memoryId), tree(ChatMessageSerializer.messagesToJson(messages)));
  }

  /** Retires the newest version of {@code memoryId}; its history stays in the journal. */
  @Override
  public void deleteMessages(Object memoryId) {
    conversations.delete(id(memoryId));
  }

  private static String id(Object memoryId) {
    return Objects.requireNonNull(memoryId, "memoryId").toString();
  }

  private static JsonNode tree(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException("LangChain4j wrote messages that are not JSON", e);
    }
  }
}
