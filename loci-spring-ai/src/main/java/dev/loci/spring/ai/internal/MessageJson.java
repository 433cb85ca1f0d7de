package dev.loci.spring.ai.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * Spring AI messages to and from JSON: {@code {"type": "USER"|"ASSISTANT"|"SYSTEM"|"TOOL", "text":
 * ..., "metadata": {...}, "tool_calls": [...], "responses": [...]}}. Metadata values that are
 * strings, numbers or booleans are kept as they are, any other value by its {@code toString()}.
 * Media are not kept: Loci stores text. Stateless and thread-safe.
 */
public final class MessageJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private MessageJson() {}

  /** The messages as a JSON array. */
  public static ArrayNode write(List<Message> messages) {
    ArrayNode out = MAPPER.createArrayNode();
    for (Message m : messages) {
      ObjectNode o = out.addObject().put("type", m.getMessageType().name());
      if (m.getText() != null) {
        o.put("text", m.getText());
      }
      ObjectNode meta = o.putObject("metadata");
      m.getMetadata().forEach((k, v) -> meta.set(k, scalar(v)));
      if (m instanceof AssistantMessage a && a.hasToolCalls()) {
        ArrayNode calls = o.putArray("tool_calls");
        a.getToolCalls()
            .forEach(
                c ->
                    calls
                        .addObject()
                        .put("id", c.id())
                        .put("type", c.type())
                        .put("name", c.name())
                        .put("arguments", c.arguments()));
      }
      if (m instanceof ToolResponseMessage t) {
        ArrayNode responses = o.putArray("responses");
        t.getResponses()
            .forEach(
                r ->
                    responses
                        .addObject()
                        .put("id", r.id())
                        .put("name", r.name())
                        .put("response_data", r.responseData()));
      }
    }
    return out;
  }

  /**
   * The messages of a JSON array {@link #write} wrote.
   *
   * @throws IllegalArgumentException naming the message that does not read
   */
  public static List<Message> read(JsonNode array) {
    List<Message> out = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      out.add(message(array.get(i), i));
    }
    return out;
  }

  private static Message message(JsonNode o, int index) {
    String typeName = o.path("type").asText("");
    MessageType type;
    try {
      type = MessageType.valueOf(typeName);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "messages["
              + index
              + "].type: expected USER, ASSISTANT, SYSTEM or TOOL, found '"
              + typeName
              + "'",
          e);
    }
    String text = o.path("text").asText("");
    Map<String, Object> meta = metadata(o.path("metadata"));
    return switch (type) {
      case USER -> UserMessage.builder().text(text).metadata(meta).build();
      case SYSTEM -> SystemMessage.builder().text(text).metadata(meta).build();
      case ASSISTANT -> {
        List<AssistantMessage.ToolCall> calls = new ArrayList<>();
        o.path("tool_calls")
            .forEach(
                c ->
                    calls.add(
                        new AssistantMessage.ToolCall(
                            c.path("id").asText(),
                            c.path("type").asText(),
                            c.path("name").asText(),
                            c.path("arguments").asText())));
        yield AssistantMessage.builder().content(text).properties(meta).toolCalls(calls).build();
      }
      case TOOL -> {
        List<ToolResponseMessage.ToolResponse> responses = new ArrayList<>();
        o.path("responses")
            .forEach(
                r ->
                    responses.add(
                        new ToolResponseMessage.ToolResponse(
                            r.path("id").asText(),
                            r.path("name").asText(),
                            r.path("response_data").asText())));
        yield ToolResponseMessage.builder().responses(responses).metadata(meta).build();
      }
    };
  }

  private static JsonNode scalar(Object v) {
    if (v instanceof String || v instanceof Number || v instanceof Boolean) {
      return MAPPER.valueToTree(v);
    }
    return MAPPER.getNodeFactory().textNode(String.valueOf(v));
  }

  private static Map<String, Object> metadata(JsonNode meta) {
    Map<String, Object> out = new LinkedHashMap<>();
    meta.fields()
        .forEachRemaining(
            e -> {
              JsonNode v = e.getValue();
              out.put(
                  e.getKey(),
                  v.isBoolean() ? v.booleanValue() : v.isNumber() ? v.numberValue() : v.asText());
            });
    return out;
  }
}
