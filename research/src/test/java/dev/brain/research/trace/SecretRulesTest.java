package dev.brain.research.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.time.Duration;
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
    assertThat(Re2Syntax.toJava("(?P<key_ops>ab)")).isEqualTo("(?<keyops>ab)");
    assertThat(Re2Syntax.toJava("pat[[:alnum:]]{3}")).isEqualTo("pat[\\p{Alnum}]{3}");
    assertThat(Re2Syntax.toJava("[\\w[&]+")).isEqualTo("[\\w\\[\\&]+");
    // Go takes a brace that starts no repetition literally; Java refuses it unescaped.
    String literalBrace = Re2Syntax.toJava("^\\$(?:\\d+|{\\d+})$");
    assertThat(Pattern.compile(literalBrace).matcher("${12}").matches()).isTrue();
    assertThat(Re2Syntax.toJava("a{2,4}b{3}")).isEqualTo("a{2,4}b{3}");
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

  @Test
  void aRuleThatRunsAwayOnALongLineStillFindsTheSecretAfterTheRunawayPoint() {
    // gitleaks' curl-auth-user rule (".*" then "-u") backtracks quadratically on a long line of
    // "curl curl ..."; with more than five lines between, no match starts on that line and the
    // budget ran out before the credentials were reached. The rule runs again on windows.
    String password = "Xk9mQ2" + "vL8p";
    String text =
        "curl ".repeat(2000)
            + "\n"
            + "a line of evidence\n".repeat(6)
            + "curl -u admin:"
            + password
            + " https://h";
    var found = new LinkedHashSet<String>();

    int runaway =
        assertTimeoutPreemptively(
            Duration.ofSeconds(60), () -> SecretRules.SHIPPED.find(text, found));

    assertThat(found).contains("admin:" + password);
    assertThat(runaway).isZero();
  }

  @Test
  void aWindowThatStillRunsAwayIsSkippedAndCountedWithinTheBudget() throws Exception {
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
    var found = new LinkedHashSet<String>();
    // The windows of this line run away again (all but the short last one): each is counted,
    // none hangs, and the other rule still finds its secret.
    String text = "a".repeat(20 * SecretRules.WINDOW) + " zz_ac12cd34";

    int runaway = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> rules.find(text, found));

    assertThat(runaway).isGreaterThanOrEqualTo(38);
    assertThat(found).containsExactly("zz_ac12cd34");
  }
}
