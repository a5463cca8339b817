package io.github.workqueue.sample;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.stream.Stream;

import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Headless Chromium driven through {@code chromedriver}, both found on the machine
 * ({@code CHROME_BIN} and {@code CHROMEDRIVER}, or Debian's {@code chromium} and
 * {@code chromium-driver} packages): nothing is downloaded.
 */
final class Browser implements AutoCloseable {

	private static final List<String> BROWSERS = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser",
			"/usr/bin/google-chrome");

	private static final List<String> DRIVERS = List.of("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver");

	private final ChromeDriver driver;

	private Browser(ChromeDriver driver) {
		this.driver = driver;
	}

	/**
	 * Says why the browser tests cannot run here, or nothing if they can.
	 */
	static Optional<String> missing() {
		if (executable("CHROME_BIN", BROWSERS).isEmpty()) {
			return Optional.of("no Chromium (set CHROME_BIN, or apt-get install chromium chromium-driver)");
		}
		if (executable("CHROMEDRIVER", DRIVERS).isEmpty()) {
			return Optional.of("no chromedriver (set CHROMEDRIVER, or apt-get install chromium-driver)");
		}
		return Optional.empty();
	}

	/**
	 * Opens the browser for a test class, or aborts the class (skipped, saying why) where
	 * the machine has none.
	 */
	static Browser openOrSkip() {
		Optional<String> missing = missing();
		if (missing.isPresent()) {
			String reason = "Skipping the dashboard's browser tests: " + missing.get();
			System.out.println("[WARNING] " + reason);
			org.junit.jupiter.api.Assumptions.abort(reason);
		}
		return open();
	}

	static Browser open() {
		ChromeOptions options = new ChromeOptions();
		options.setBinary(executable("CHROME_BIN", BROWSERS).orElseThrow());
		options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
				"--window-size=1440,1500", "--force-device-scale-factor=1");
		LoggingPreferences logs = new LoggingPreferences();
		logs.enable(LogType.BROWSER, Level.ALL);
		options.setCapability("goog:loggingPrefs", logs);
		ChromeDriverService service = new ChromeDriverService.Builder()
			.usingDriverExecutable(new File(executable("CHROMEDRIVER", DRIVERS).orElseThrow()))
			.usingAnyFreePort()
			.build();
		ChromeDriver driver = new ChromeDriver(service, options);
		driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
		return new Browser(driver);
	}

	private static Optional<String> executable(String variable, List<String> candidates) {
		String configured = System.getenv(variable);
		return Stream.concat(Stream.ofNullable(configured), candidates.stream())
			.filter((path) -> Files.isExecutable(Path.of(path)))
			.findFirst();
	}

	void open(String url) {
		this.driver.get(url);
	}

	WebElement find(String css) {
		return this.driver.findElement(By.cssSelector(css));
	}

	List<WebElement> findAll(String css) {
		return this.driver.findElements(By.cssSelector(css));
	}

	/** The text of the first element the selector matches, or {@code ""} if none. */
	String text(String css) {
		List<WebElement> found = findAll(css);
		return found.isEmpty() ? "" : found.get(0).getText();
	}

	String attribute(String css, String name) {
		List<WebElement> found = findAll(css);
		return found.isEmpty() ? "" : String.valueOf(found.get(0).getAttribute(name));
	}

	Object script(String javascript, Object... arguments) {
		return ((JavascriptExecutor) this.driver).executeScript(javascript, arguments);
	}

	/** Resizes the window, keeping its height. */
	void windowWidth(int width) {
		org.openqa.selenium.Dimension size = this.driver.manage().window().getSize();
		this.driver.manage().window().setSize(new org.openqa.selenium.Dimension(width, size.getHeight()));
	}

	void acceptConfirmation() {
		this.driver.switchTo().alert().accept();
	}

	/** Accepts the confirmation the page asks, and returns what it asked. */
	String acceptConfirmationSaying() {
		org.openqa.selenium.Alert alert = this.driver.switchTo().alert();
		String text = alert.getText();
		alert.accept();
		return text;
	}

	/** Errors the page logged to the console since the last call. */
	List<String> consoleErrors() {
		return this.driver.manage()
			.logs()
			.get(LogType.BROWSER)
			.getAll()
			.stream()
			.filter((entry) -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
			.map(LogEntry::getMessage)
			.toList();
	}

	void screenshot(Path file) throws java.io.IOException {
		Files.createDirectories(file.getParent());
		Files.write(file, this.driver.getScreenshotAs(OutputType.BYTES));
	}

	@Override
	public void close() {
		this.driver.quit();
	}

}
