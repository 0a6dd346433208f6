use dsh_tools::tool;

/// Looks up the forecast.
#[tool(example = r#"{"city": "Paris",}"#)]
async fn forecast(city: String) -> String {
    city
}

fn main() {
    let _ = dsh_tools::ToolRegistry::new().register(ForecastTool);
}
