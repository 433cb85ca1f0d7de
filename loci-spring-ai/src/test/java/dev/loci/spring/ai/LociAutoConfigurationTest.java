package dev.loci.spring.ai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Namespace;
import dev.loci.client.EmbeddedLoci;
import dev.loci.client.LociApi;
import dev.loci.client.LociClient;
import dev.loci.client.RemoteException;
import dev.loci.client.TestDocuments;
import dev.loci.client.TestServer;
import dev.loci.server.Role;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.InMemoryChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.rag.advisor.RetrievalAugmentationAdvisor;
import org.springframework.ai.rag.generation.augmentation.ContextualQueryAugmenter;
import org.springframework.ai.rag.retrieval.search.DocumentRetriever;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * Real Spring Boot applications configured only by {@code loci.*} properties, with a scripted chat
 * model behind a real {@link ChatClient} with Spring AI's chat memory and retrieval advisors: what
 * reaches the prompt, what survives a restart, and how bad configuration is refused.
 */
class LociAutoConfigurationTest {
  static final String TOKEN = "writer-token-0123456789";

  @TempDir Path dir;

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {
    @Bean
    ScriptedChatModel chatModel() {
      return new ScriptedChatModel();
    }
  }

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class AppWithOwnRepository {
    @Bean
    ChatMemoryRepository ownRepository() {
      return new InMemoryChatMemoryRepository();
    }
  }

  private static ConfigurableApplicationContext start(Class<?> app, String... properties) {
    return new SpringApplicationBuilder(app)
        .web(WebApplicationType.NONE)
        .properties(properties)
        .run();
  }

  private static String ask(ConfigurableApplicationContext ctx, String conversation, String q) {
    ChatMemory memory =
        MessageWindowChatMemory.builder()
            .chatMemoryRepository(ctx.getBean(ChatMemoryRepository.class))
            .maxMessages(20)
            .build();
    ChatClient client =
        ChatClient.builder(ctx.getBean(ScriptedChatModel.class))
            .defaultAdvisors(
                MessageChatMemoryAdvisor.builder(memory).build(),
                RetrievalAugmentationAdvisor.builder()
                    .documentRetriever(ctx.getBean(DocumentRetriever.class))
                    .queryAugmenter(
                        ContextualQueryAugmenter.builder()
                            .allowEmptyContext(true)
                            .documentFormatter(LociDocumentRetriever::formatWithEvidence)
                            .build())
                    .build())
            .build();
    return client
        .prompt()
        .user(q)
        .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversation))
        .call()
        .content();
  }

  private static void ingestRunbook(ConfigurableApplicationContext ctx) {
    ctx.getBean(LociApi.class)
        .ingest(Namespace.of("acme.app"), TestDocuments.PACK, List.of(TestDocuments.runbook()));
  }

  private static String text(Message m) {
    return m.getText();
  }

  @Test
  void embedded_promptCarriesRecallWithPathAndEarlierTurns_andMemorySurvivesARestart() {
    String[] props = {"loci.data-dir=" + dir, "loci.namespace=acme.app", "loci.recall.k=2"};
    try (ConfigurableApplicationContext ctx = start(App.class, props)) {
      assertThat(ctx.getBean(LociApi.class)).isInstanceOf(EmbeddedLoci.class);
      ingestRunbook(ctx);
      assertThat(ask(ctx, "s1", "How do I roll back a payments deploy?")).isEqualTo("answer 1");
      assertThat(ask(ctx, "s1", "How long is the rollback window?")).isEqualTo("answer 2");

      List<List<Message>> prompts = ctx.getBean(ScriptedChatModel.class).prompts();
      String first = text(prompts.get(0).get(prompts.get(0).size() - 1));
      assertThat(first)
          .contains("How do I roll back a payments deploy?")
          .contains("run the revert pipeline and page the on-call")
          .contains("(path: seed ")
          .contains("(source: deploy.md § Rollback");
      List<Message> second = prompts.get(1);
      assertThat(second).hasSize(3); // the first question, its answer, the new question
      assertThat(text(second.get(0))).startsWith("How do I roll back a payments deploy?");
      assertThat(text(second.get(1))).isEqualTo("answer 1");
    }
    try (ConfigurableApplicationContext ctx = start(App.class, props)) {
      ChatMemoryRepository repository = ctx.getBean(ChatMemoryRepository.class);
      assertThat(repository).isInstanceOf(LociChatMemoryRepository.class);
      assertThat(repository.findConversationIds()).containsExactly("s1");
      assertThat(repository.findByConversationId("s1"))
          .extracting(LociAutoConfigurationTest::text)
          .containsExactly(
              "How do I roll back a payments deploy?",
              "answer 1",
              "How long is the rollback window?",
              "answer 2");
      repository.deleteByConversationId("s1");
      assertThat(repository.findByConversationId("s1")).isEmpty();
      assertThat(repository.findConversationIds()).isEmpty();
    }
  }

  @Test
  void remote_sameCodeOverAServer_withTheTokenItWasGiven() {
    try (TestServer server =
        TestServer.start(dir, TestServer.credential("agent", TOKEN, Role.WRITER, "acme.*"))) {
      String url = "loci.url=" + server.url();
      try (ConfigurableApplicationContext ctx =
          start(App.class, url, "loci.token=" + TOKEN, "loci.namespace=acme.app")) {
        assertThat(ctx.getBean(LociApi.class)).isInstanceOf(LociClient.class);
        ingestRunbook(ctx);
        ask(ctx, "s1", "Who approves a Friday deploy?");
        String prompt = text(ctx.getBean(ScriptedChatModel.class).prompts().get(0).get(0));
        assertThat(prompt).contains("release captain").contains("(source: deploy.md § Freeze");
        assertThat(ctx.getBean(ChatMemoryRepository.class).findByConversationId("s1")).hasSize(2);
      }
      try (ConfigurableApplicationContext ctx =
          start(App.class, url, "loci.token=wrong-token-0123456789", "loci.namespace=acme.app")) {
        assertThatThrownBy(() -> ctx.getBean(ChatMemoryRepository.class).findConversationIds())
            .isInstanceOf(RemoteException.class);
      }
      try (ConfigurableApplicationContext ctx =
          start(App.class, url, "loci.token=" + TOKEN, "loci.namespace=other")) {
        assertThatThrownBy(() -> ctx.getBean(ChatMemoryRepository.class).findConversationIds())
            .isInstanceOf(RemoteException.class);
      }
    }
  }

  @Test
  void repository_keepsEveryMessageType() {
    try (ConfigurableApplicationContext ctx =
        start(App.class, "loci.data-dir=" + dir, "loci.namespace=acme.app")) {
      ChatMemoryRepository repository = ctx.getBean(ChatMemoryRepository.class);
      List<Message> messages = new ArrayList<>();
      messages.add(new SystemMessage("be brief"));
      messages.add(UserMessage.builder().text("weather?").metadata(Map.of("lang", "en")).build());
      messages.add(
          AssistantMessage.builder()
              .content("")
              .toolCalls(
                  List.of(
                      new AssistantMessage.ToolCall(
                          "c1", "function", "weather", "{\"city\":\"Oslo\"}")))
              .build());
      messages.add(
          ToolResponseMessage.builder()
              .responses(List.of(new ToolResponseMessage.ToolResponse("c1", "weather", "rain")))
              .build());
      messages.add(new AssistantMessage("It rains in Oslo."));
      repository.saveAll("t", messages);

      List<Message> back = repository.findByConversationId("t");
      assertThat(back)
          .extracting(Message::getMessageType)
          .containsExactly(
              messages.stream()
                  .map(Message::getMessageType)
                  .toArray(org.springframework.ai.chat.messages.MessageType[]::new));
      assertThat(back.get(1).getMetadata()).containsEntry("lang", "en");
      assertThat(((AssistantMessage) back.get(2)).getToolCalls())
          .containsExactly(
              new AssistantMessage.ToolCall("c1", "function", "weather", "{\"city\":\"Oslo\"}"));
      assertThat(((ToolResponseMessage) back.get(3)).getResponses())
          .containsExactly(new ToolResponseMessage.ToolResponse("c1", "weather", "rain"));
      assertThat(back.get(4).getText()).isEqualTo("It rains in Oslo.");
    }
  }

  @Test
  void applicationBeans_win_andBadConfigurationIsRefusedByName() {
    try (ConfigurableApplicationContext ctx =
        start(AppWithOwnRepository.class, "loci.data-dir=" + dir)) {
      assertThat(ctx.getBean(ChatMemoryRepository.class))
          .isInstanceOf(InMemoryChatMemoryRepository.class);
      assertThat(ctx.getBean(DocumentRetriever.class)).isInstanceOf(LociDocumentRetriever.class);
    }
    assertThatThrownBy(() -> start(App.class))
        .rootCause()
        .hasMessageContaining("set loci.data-dir")
        .hasMessageContaining("loci.url");
    assertThatThrownBy(
            () -> start(App.class, "loci.data-dir=" + dir, "loci.url=http://127.0.0.1:1/"))
        .rootCause()
        .hasMessageContaining("not both");
    assertThatThrownBy(() -> start(App.class, "loci.data-dir=" + dir, "loci.recall.mode=fuzzy"))
        .rootCause()
        .hasMessageContaining("fuzzy");
    assertThatThrownBy(() -> start(App.class, "loci.data-dir=" + dir, "loci.namespace=Bad NS"))
        .rootCause()
        .hasMessageContaining("Bad NS");
  }
}
