package dev.loci.spring.ai;

import dev.loci.Namespace;
import dev.loci.client.Conversations;
import dev.loci.client.LociApi;
import dev.loci.spring.ai.internal.MessageJson;
import java.util.List;
import java.util.Objects;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.messages.Message;

/**
 * A Spring AI {@link ChatMemoryRepository} that keeps each conversation in Loci: one revision chain
 * of traces per conversation id in the configured namespace ({@link Conversations}), so every state
 * a conversation went through stays in the journal, and deleting retires the newest version rather
 * than erasing anything.
 *
 * <p>User, assistant (with tool calls), system and tool-response messages are kept with their text
 * and scalar metadata; media are not kept. A conversation id must be 1-200 characters without
 * control characters. Thread-safe; concurrent saves of one conversation are last-writer-wins.
 */
public final class LociChatMemoryRepository implements ChatMemoryRepository {
  private final Conversations conversations;

  private LociChatMemoryRepository(Conversations conversations) {
    this.conversations = conversations;
  }

  /** A repository keeping conversations in namespace {@code ns} through {@code api}. */
  public static LociChatMemoryRepository of(LociApi api, Namespace ns) {
    Objects.requireNonNull(api, "api");
    Objects.requireNonNull(ns, "namespace");
    return new LociChatMemoryRepository(Conversations.of(api, ns));
  }

  /** The namespace the conversations are kept in. */
  public Namespace namespace() {
    return conversations.namespace();
  }

  /** Every conversation that has messages, each once. */
  @Override
  public List<String> findConversationIds() {
    return conversations.ids();
  }

  /**
   * The messages last saved for {@code conversationId}; empty if none were or it was deleted.
   *
   * @throws IllegalArgumentException if the id is blank, too long or has control characters
   */
  @Override
  public List<Message> findByConversationId(String conversationId) {
    return conversations.load(conversationId).map(MessageJson::read).orElseGet(List::of);
  }

  /** Saves {@code messages} as the new version of the conversation, replacing what it held. */
  @Override
  public void saveAll(String conversationId, List<Message> messages) {
    Objects.requireNonNull(messages, "messages");
    conversations.save(conversationId, MessageJson.write(messages));
  }

  /** Retires the newest version of the conversation; its history stays in the journal. */
  @Override
  public void deleteByConversationId(String conversationId) {
    conversations.delete(conversationId);
  }
}
