package io.github.workqueue.redis.internal.link;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The scripts' includes: each script's code holds every included name it uses (Lua finds
 * a missing local only when the line runs, as a nil global), each file once and after the
 * files it includes; cycles and unknown names are refused when the code is put together.
 */
class LuaIncludesTest {

	private static final Pattern TOP_LEVEL_NAME = Pattern
		.compile("(?m)^(?:local function (\\w+)|local ([\\w, ]+?)(?:\\s*=.*)?$|(\\w+) = function)");

	private static final Pattern NAME = Pattern.compile("(?<![.:\\w])([A-Za-z_]\\w*)");

	@ParameterizedTest
	@EnumSource(Script.class)
	void everyIncludedNameAScriptUsesShouldBeInItsCode(Script script) {
		Map<String, String> definedIn = definitionsOfEveryInclude();
		Set<String> own = defined(script.body());
		Set<String> missing = new LinkedHashSet<>();
		Matcher used = NAME.matcher(withoutComments(script.body()));
		while (used.find()) {
			String name = used.group(1);
			if (definedIn.containsKey(name) && !own.contains(name)) {
				missing.add(name + " (" + definedIn.get(name) + ")");
			}
		}
		assertThat(missing).as(script.fileName() + ".lua uses names of files it does not include").isEmpty();
	}

	@Test
	void eachFileShouldComeOnceAfterTheFilesItIncludes() {
		String code = LuaIncludes.code(List.of("leases", "delays", "placement"));
		int state = code.indexOf("local function begin(");
		int ready = code.indexOf("local function readyAddAll(");
		int placement = code.indexOf("local function enqueueAll(");
		int items = code.indexOf("local function markDirty(");
		int leases = code.indexOf("local function reapExpired(");
		assertThat(state).isNotNegative().isLessThan(ready);
		assertThat(ready).isLessThan(placement);
		assertThat(placement).isLessThan(items);
		assertThat(items).isLessThan(leases);
		assertThat(code.indexOf("local function enqueueAll(", placement + 1)).as("placement once").isNegative();
	}

	@Test
	void aCycleShouldBeRefusedNamingIt() {
		assertThatIllegalStateException().isThrownBy(() -> LuaIncludes.code(List.of("testCycleA")))
			.withMessage("Lua includes form a cycle: testCycleA -> testCycleB -> testCycleA");
	}

	@Test
	void anUnknownIncludeShouldBeRefusedNamingIt() {
		assertThatIllegalStateException().isThrownBy(() -> LuaIncludes.code(List.of("testUnknown")))
			.withMessageContaining("No Lua include 'testMissing'");
	}

	@Test
	void theLibraryShouldHoldEveryFileOnce() {
		String code = ScriptLibrary.CODE;
		for (String function : List.of("begin", "readyPop", "placeAll", "markDirty", "promoteDue", "leaseOf",
				"reserveToken")) {
			String definition = "local function " + function + "(";
			assertThat(code.indexOf(definition)).as(function).isNotNegative();
			assertThat(code.indexOf(definition, code.indexOf(definition) + 1)).as(function + " once").isNegative();
		}
	}

	/** Every top-level name of every file some script includes, with its file. */
	private static Map<String, String> definitionsOfEveryInclude() {
		Map<String, String> definedIn = new HashMap<>();
		for (String file : List.of("state", "ready", "fairness", "placement", "items", "delays", "leases",
				"limiters")) {
			for (String name : defined(LuaIncludes.code(List.of(file)))) {
				definedIn.putIfAbsent(name, file);
			}
		}
		return definedIn;
	}

	private static Set<String> defined(String code) {
		Set<String> names = new LinkedHashSet<>();
		Matcher definition = TOP_LEVEL_NAME.matcher(code);
		while (definition.find()) {
			for (int group = 1; group <= 3; group++) {
				if (definition.group(group) != null) {
					for (String name : definition.group(group).split(",")) {
						names.add(name.strip());
					}
				}
			}
		}
		return names;
	}

	/**
	 * The code without its comments and the contents of its one-line strings (a key's
	 * suffix such as {@code 'wake'} is no use of the function of that name).
	 */
	private static String withoutComments(String code) {
		return code.replaceAll("--[^\n]*", "").replaceAll("'[^'\n]*'", "''").replaceAll("\"[^\"\n]*\"", "\"\"");
	}

}
