use dsh_tools::tool;

/// Looks up the forecast.
#[tool(example = r#"{"city": "Paris", "dayz": 3}"#)]
async fn forecast(city: String, days: Option<u32>) -> String {
    format!("{city} {days:?}")
}

fn main() {
    let _ = dsh_tools::ToolRegistry::new().register(ForecastTool);
}
