/**
 * chart.js with the controllers, elements and plugins the dashboard's charts use, registered once.
 * Imported only through `import()` by the Chart component, so chart.js is its own chunk, fetched
 * after the first view has painted.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LineController,
  LineElement,
  LinearScale,
  PointElement,
  ScatterController,
  Tooltip,
} from 'chart.js'

Chart.register(
  LineController,
  LineElement,
  PointElement,
  BarController,
  BarElement,
  ScatterController,
  LinearScale,
  CategoryScale,
  Filler,
  Legend,
  Tooltip,
)

export { Chart }
