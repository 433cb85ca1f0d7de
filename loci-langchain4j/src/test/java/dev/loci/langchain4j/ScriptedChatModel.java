package dev.loci.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** A chat model that answers from a script and keeps every request it was sent. */
final class ScriptedChatModel implements ChatModel {
  private final Deque<String> answers;
  private final List<List<ChatMessage>> prompts = new ArrayList<>();

  ScriptedChatModel(String... answers) {
    this.answers = new ArrayDeque<>(List.of(answers));
  }

  @Override
  public synchronized ChatResponse doChat(ChatRequest request) {
    prompts.add(List.copyOf(request.messages()));
    String answer = answers.isEmpty() ? "(script ended)" : answers.poll();
    return ChatResponse.builder().aiMessage(AiMessage.from(answer)).build();
  }

  /** The messages of each request, in the order they came. */
  synchronized List<List<ChatMessage>> prompts() {
    return List.copyOf(prompts);
  }
}
