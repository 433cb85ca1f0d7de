package dev.loci.spring.ai;

import java.util.ArrayList;
import java.util.List;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;

/** A chat model answering "answer 1", "answer 2", ... and keeping every prompt it was sent. */
final class ScriptedChatModel implements ChatModel {
  private final List<List<Message>> prompts = new ArrayList<>();

  @Override
  public synchronized ChatResponse call(Prompt prompt) {
    prompts.add(List.copyOf(prompt.getInstructions()));
    return new ChatResponse(
        List.of(new Generation(new AssistantMessage("answer " + prompts.size()))));
  }

  /** The messages of each prompt, in the order they came. */
  synchronized List<List<Message>> prompts() {
    return List.copyOf(prompts);
  }
}
