package dev.brain.research.trace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.util.LinkedHashSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** gitleaks' rule set read as data: how much of it compiles, and how a rule finds a secret. */
class SecretRulesTest {

  @Test
  void theShippedRuleSetNamesItsVersionAndCompilesAllButItsPathRules() {
    var source = SecretRules.SHIPPED.source();

    assertThat(source.name()).isEqualTo("gitleaks");
    assertThat(source.version()).isEqualTo("v8.30.0-27-gb58d3f10");
    assertThat(source.commit()).isEqualTo("b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b");
    // 222 rules: 5 apply to some file paths only; every other regex compiles in Java. A new rule
    // file that breaks many shows here.
    assertThat(source.rules()).isEqualTo(217);
    assertThat(source.skipped()).isEqualTo(5);
  }

  @Test
  void goRegexSyntaxBecomesJavaSyntax() {
    assertThat(SecretRules.toJava("(?P<key_ops>ab)")).isEqualTo("(?<keyops>ab)");
    assertThat(SecretRules.toJava("pat[[:alnum:]]{3}")).isEqualTo("pat[\\p{Alnum}]{3}");
    assertThat(SecretRules.toJava("[\\w[&]+")).isEqualTo("[\\w\\[\\&]+");
    // Go takes a brace that starts no repetition literally; Java refuses it unescaped.
    String literalBrace = SecretRules.toJava("^\\$(?:\\d+|{\\d+})$");
    assertThat(Pattern.compile(literalBrace).matcher("${12}").matches()).isTrue();
    assertThat(SecretRules.toJava("a{2,4}b{3}")).isEqualTo("a{2,4}b{3}");
  }

  private static SecretRules rules(String toml) throws Exception {
    return SecretRules.parse(new TomlMapper().readTree(toml), "test", "v0", "0000");
  }

  private static LinkedHashSet<String> find(SecretRules rules, String text) {
    var found = new LinkedHashSet<String>();
    rules.find(text, found);
    return found;
  }

  @Test
  void aRuleFindsItsSecretGroupOnlyWithAKeywordAboveItsEntropyAndOutsideItsAllowlists()
      throws Exception {
    var rules =
        rules(
            """
            [[rules]]
            id = "demo"
            regex = '''(demo)_(?P<kind>live|test)_([a-z0-9]{12})'''
            secretGroup = 3
            entropy = 2.5
            keywords = ["demo_"]
            [[rules.allowlists]]
            stopwords = ["example"]
            """);
    String key = "k3j9x2m7q1z8";

    assertThat(find(rules, "use demo_live_" + key + " here")).containsExactly(key);
    // Upper case: the regex is case-sensitive; the keyword test is not, and lets it through.
    assertThat(find(rules, "use DEMO_live_" + key)).isEmpty();
    assertThat(find(rules, "demo_live_aaaaaaaaaaaa")).as("low entropy").isEmpty();
    assertThat(find(rules, "demo_live_example12345")).as("a stopword").isEmpty();
  }

  @Test
  void withoutASecretGroupTheFirstUnnamedNonEmptyGroupIsTheSecretElseTheMatch() throws Exception {
    var rules =
        rules(
            """
            [[rules]]
            id = "grouped"
            regex = '''tok(?P<label>en)=([A-Za-z0-9]{10})'''
            [[rules]]
            id = "whole"
            regex = '''zz_[a-z0-9]{8}'''
            """);

    assertThat(find(rules, "token=Ab3De5Gh7J and zz_ab12cd34"))
        .containsExactly("Ab3De5Gh7J", "zz_ab12cd34");
  }

  @Test
  void aRuleWithAPathIsSkippedAndCounted() throws Exception {
    var rules =
        rules(
            """
            [[rules]]
            id = "php-only"
            regex = '''secret'''
            path = '''\\.php$'''
            [[rules]]
            id = "broken"
            regex = '''(unclosed'''
            """);

    assertThat(rules.source().rules()).isZero();
    assertThat(rules.source().skipped()).isEqualTo(2);
    assertThat(find(rules, "secret (unclosed")).isEmpty();
  }

  @Test
  void aRuleWhoseMatchRunsAwayIsAbandonedForThatTextAndTheOtherRulesStillFind() throws Exception {
    // (a+)+b backtracks exponentially on a's without a b (RE2 would not): the read budget ends it.
    var rules =
        rules(
            """
            [[rules]]
            id = "runaway"
            regex = '''(a+)+b'''
            [[rules]]
            id = "plain"
            regex = '''zz_[a-z0-9]{8}'''
            """);

    assertThat(find(rules, "a".repeat(40) + " zz_ac12cd34")).containsExactly("zz_ac12cd34");
  }
}
